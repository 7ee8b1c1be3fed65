place big1 -2 2 turn 7
place big2 0 3 turn 1
place medium -2 2 turn 7
place square 0 2 turn 1
place parallelogram 0 3 turn 1
place small1 -1 3 turn 3
place small2 -2 4 turn 7
