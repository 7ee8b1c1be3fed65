place big1 3 3 turn 3
place big2 2 1 turn 1
place medium 0 0 turn 7
place square 3 0 turn 1
place parallelogram 2 1 turn 1
place small1 1 1 turn 3
place small2 3 4 turn 3
