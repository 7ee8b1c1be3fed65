place big1 5 2 turn 5
place big2 0 2 turn 5
place medium 2 1 turn 5
place square 6 0 turn 1
place parallelogram 3 0 turn 1
place small1 4 1 turn 7
place small2 1 2 turn 3
