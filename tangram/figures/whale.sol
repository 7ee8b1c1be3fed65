place big1 0 0 turn 1
place big2 4 2 turn 3
place medium 2 2 turn 3
place square 1 2 turn 1
place parallelogram 4 2 turn 3
place small1 2 0 turn 1
place small2 3 0 turn 1
