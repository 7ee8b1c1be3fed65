place big1 2 1 turn 1
place big2 1 0 turn 7
place medium 0 2 turn 5
place square 3 3 turn 1
place parallelogram 2 2 turn 3
place small1 4 3 turn 3
place small2 0 1 turn 7
