place big1 2 0 turn 3
place big2 2 0 turn 7
place medium 1 1 turn 5
place square 5 1 turn 1
place parallelogram 4 3 turn 3
place small1 0 2 turn 5
place small2 3 3 turn 5
