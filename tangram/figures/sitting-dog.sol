place big1 3 2 turn 3
place big2 2 0 turn 1
place medium 3 5 turn 3
place square 3 1 turn 1
place parallelogram 3 3 turn 1
place small1 2 0 turn 1
place small2 0 1 turn 7
