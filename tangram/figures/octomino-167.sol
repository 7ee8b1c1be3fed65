place big1 4 3 turn 5
place big2 3 2 turn 3
place medium 3 2 turn 7
place square 1 0 turn 1
place parallelogram 3 1 turn 3 flip
place small1 3 4 turn 5
place small2 3 0 turn 1
