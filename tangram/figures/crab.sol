place big1 1 0 turn 1
place big2 5 0 turn 1
place medium 4 1 turn 1
place square 6 2 turn 1
place parallelogram 6 5 turn 3
place small1 1 2 turn 1
place small2 1 3 turn 3
