place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 4 1 turn 5
place square 1 0 turn 1
place parallelogram 5 0 turn 1
place small1 6 1 turn 3
place small2 3 0 turn 7
