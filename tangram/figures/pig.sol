place big1 3 1 turn 3
place big2 4 1 turn 1
place medium 2 0 turn 1
place square 1 1 turn 1
place parallelogram 4 1 turn 1
place small1 4 0 turn 1
place small2 2 2 turn 7
