place big1 4 3 turn 3
place big2 3 1 turn 1
place medium 2 4 turn 1
place square 1 3 turn 1
place parallelogram 2 2 turn 1
place small1 3 0 turn 1
place small2 2 1 turn 7
