place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 2 3 turn 5
place square 3 0 turn 1
place parallelogram 3 2 turn 1
place small1 4 3 turn 3
place small2 1 2 turn 7
