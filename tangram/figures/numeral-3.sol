place big1 3 4 turn 3
place big2 3 1 turn 1
place medium 1 1 turn 5
place square 3 3 turn 1
place parallelogram 2 0 turn 1
place small1 2 2 turn 1
place small2 2 1 turn 7
