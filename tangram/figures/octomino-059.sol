place big1 2 0 turn 3
place big2 2 1 turn 1
place medium 1 1 turn 5
place square 4 0 turn 1
place parallelogram 2 1 turn 1
place small1 3 1 turn 3
place small2 0 2 turn 7
