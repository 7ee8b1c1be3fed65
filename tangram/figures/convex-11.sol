place big1 0 3 turn 7
place big2 -1 3 turn 5
place medium 1 0 turn 7
place square 1 0 turn 1
place parallelogram 1 2 turn 1
place small1 -1 1 turn 5
place small2 1 2 turn 3
