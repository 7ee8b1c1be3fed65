place big1 1 0 turn 1
place big2 1 2 turn 7
place medium 4 1 turn 1
place square 1 3 turn 1
place parallelogram 2 4 turn 3
place small1 2 1 turn 3
place small2 4 2 turn 3
