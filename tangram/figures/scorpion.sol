place big1 2 0 turn 3
place big2 1 1 turn 7
place medium 2 2 turn 7
place square 5 3 turn 1
place parallelogram 4 3 turn 1
place small1 1 1 turn 5
place small2 1 2 turn 5
