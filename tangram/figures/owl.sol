place big1 2 1 turn 3
place big2 3 0 turn 1
place medium 3 2 turn 7
place square 2 0 turn 1
place parallelogram 4 3 turn 3
place small1 3 0 turn 1
place small2 4 1 turn 1
