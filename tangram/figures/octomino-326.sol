place big1 0 5 turn 7
place big2 0 0 turn 7
place medium 1 2 turn 7
place square 3 2 turn 1
place parallelogram 2 3 turn 3
place small1 1 4 turn 1
place small2 0 1 turn 5
