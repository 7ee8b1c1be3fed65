place big1 4 2 turn 5
place big2 1 3 turn 5
place medium 2 4 turn 3
place square 2 0 turn 1
place parallelogram 2 4 turn 3 flip
place small1 2 0 turn 7
place small2 3 2 turn 3
