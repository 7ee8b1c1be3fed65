place big1 1 2 turn 7
place big2 1 4 turn 5
place medium 2 1 turn 1
place square 1 0 turn 1
place parallelogram 1 3 turn 3
place small1 3 0 turn 1
place small2 2 4 turn 3
