place big1 -2 2 turn 7
place big2 -3 3 turn 7
place medium -1 3 turn 7
place square -1 2 turn 1
place parallelogram 0 4 turn 3
place small1 0 3 turn 3
place small2 -2 3 turn 3
