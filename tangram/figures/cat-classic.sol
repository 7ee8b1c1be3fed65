place big1 2+r2 2+r2 turn 4
place big2 0 0 turn 7
place medium -1 1 turn 5
place square 3 0 turn 1
place parallelogram 5 2 turn 3
place small1 4 0 turn 1
place small2 2 1 turn 7
