place big1 2 1 turn 3
place big2 4 0 turn 1
place medium 3 2 turn 7
place square 1 0 turn 1
place parallelogram 3 1 turn 1
place small1 4 0 turn 1
place small2 4 2 turn 1
