place big1 0 2 turn 3
place big2 0 0 turn 1
place medium -1 4 turn 1
place square -2 3 turn 1
place parallelogram 0 3 turn 1
place small1 -3 3 turn 5
place small2 0 3 turn 3
