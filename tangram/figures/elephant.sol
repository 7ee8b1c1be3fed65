place big1 0 0 turn 1
place big2 1 2 turn 7
place medium 3 1 turn 1
place square 3 0 turn 1
place parallelogram 4 1 turn 1
place small1 1 1 turn 3
place small2 4 2 turn 3
