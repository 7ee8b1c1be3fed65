place big1 2 4 turn 5
place big2 2 5 turn 3
place medium 0 1 turn 5
place square 3 1 turn 1
place parallelogram 1 4 turn 3
place small1 2 1 turn 3
place small2 0 0 turn 7
