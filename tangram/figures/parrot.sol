place big1 3 1 turn 3
place big2 3 1 turn 1
place medium 2 5 turn 3
place square 1 4 turn 1
place parallelogram 2 3 turn 1
place small1 3 1 turn 3
place small2 0 3 turn 7
