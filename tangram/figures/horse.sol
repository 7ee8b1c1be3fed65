place big1 4 3 turn 5
place big2 3 2 turn 3
place medium 5 2 turn 3
place square 2 2 turn 1
place parallelogram 1 4 turn 3
place small1 2 1 turn 3
place small2 4 0 turn 7
