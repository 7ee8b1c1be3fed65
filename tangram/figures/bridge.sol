place big1 4 2 turn 7
place big2 2 3 turn 5
place medium 0 0 turn 7
place square 2 1 turn 1
place parallelogram 5 1 turn 1
place small1 1 1 turn 3
place small2 5 0 turn 7
