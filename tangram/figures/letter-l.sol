place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 0 3 turn 7
place square 3 0 turn 1
place parallelogram 1 4 turn 3
place small1 0 5 turn 5
place small2 1 2 turn 1
