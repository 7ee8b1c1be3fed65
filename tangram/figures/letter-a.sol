place big1 2 2 turn 7
place big2 2 4 turn 5
place medium 1 2 turn 3
place square 2 2 turn 1
place parallelogram 1 3 turn 3
place small1 1 0 turn 1
place small2 3 0 turn 7
