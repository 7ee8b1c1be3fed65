place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 3 1 turn 5
place square 5 1 turn 1
place parallelogram 4 0 turn 1
place small1 5 1 turn 3
place small2 2 0 turn 7
