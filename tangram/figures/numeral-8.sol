place big1 1 2 turn 1
place big2 0 1 turn 7
place medium 2 0 turn 7
place square 2 0 turn 1
place parallelogram 3 4 turn 3
place small1 0 1 turn 5
place small2 1 3 turn 3
