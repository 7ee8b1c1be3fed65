place big1 2 2 turn 5
place big2 2 3 turn 5
place medium 1 2 turn 7
place square 4 0 turn 1
place parallelogram 1 2 turn 3
place small1 2 3 turn 3
place small2 1 2 turn 5
