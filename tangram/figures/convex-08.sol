place big1 0 0 turn 1
place big2 0 4 turn 5
place medium -1 3 turn 3
place square 0 1 turn 1
place parallelogram 0 4 turn 3
place small1 -1 1 turn 5
place small2 0 2 turn 1
