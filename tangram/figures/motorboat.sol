place big1 4 1 turn 3
place big2 4 1 turn 1
place medium 3 1 turn 5
place square 3 0 turn 1
place parallelogram 2 0 turn 1
place small1 1 1 turn 5
place small2 3 0 turn 7
