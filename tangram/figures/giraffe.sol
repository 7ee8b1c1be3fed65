place big1 1 0 turn 1
place big2 0 2 turn 7
place medium 4 1 turn 1
place square 4 0 turn 1
place parallelogram 2 5 turn 3
place small1 1 4 turn 1
place small2 2 0 turn 1
