place big1 4 1 turn 3
place big2 5 0 turn 1
place medium 2 3 turn 3
place square 2 0 turn 1
place parallelogram 2 1 turn 1
place small1 6 2 turn 3
place small2 4 0 turn 7
