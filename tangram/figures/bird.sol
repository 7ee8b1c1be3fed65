place big1 0 4 turn 7
place big2 1 3 turn 5
place medium 3 4 turn 3
place square 2 0 turn 1
place parallelogram 3 1 turn 1 flip
place small1 3 1 turn 3
place small2 3 3 turn 5
