place big1 0 2 turn 3
place big2 0 0 turn 1
place medium 0 1 turn 7
place square 1 0 turn 1
place parallelogram 0 3 turn 1
place small1 1 2 turn 3
place small2 0 3 turn 3
