place big1 2 2 turn 3
place big2 3 1 turn 1
place medium 1 5 turn 3
place square 2 0 turn 1
place parallelogram 3 1 turn 1
place small1 3 3 turn 1
place small2 1 1 turn 7
