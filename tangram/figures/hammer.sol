place big1 4 6 turn 5
place big2 3 5 turn 3
place medium 2 3 turn 3
place square 2 0 turn 1
place parallelogram 2 4 turn 3
place small1 1 4 turn 1
place small2 1 1 turn 7
