place big1 4 2 turn 5
place big2 5 4 turn 3
place medium 1 1 turn 5
place square 1 0 turn 1
place parallelogram 4 3 turn 3
place small1 5 4 turn 3
place small2 1 0 turn 7
