place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 1 3 turn 7
place square 3 0 turn 1
place parallelogram 2 4 turn 3
place small1 1 5 turn 5
place small2 2 2 turn 1
