place big1 4 1 turn 3
place big2 4 1 turn 1
place medium 2 4 turn 1
place square 3 0 turn 1
place parallelogram 3 5 turn 3
place small1 5 3 turn 3
place small2 3 3 turn 1
