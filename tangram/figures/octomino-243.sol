place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 3 2 turn 5
place square 2 2 turn 1
place parallelogram 4 1 turn 1
place small1 5 2 turn 3
place small2 2 1 turn 7
