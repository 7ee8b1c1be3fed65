place big1 3 1 turn 1
place big2 3 1 turn 7
place medium 3 2 turn 3
place square 1 0 turn 1
place parallelogram 3 0 turn 1
place small1 2 0 turn 1
place small2 2 2 turn 5
