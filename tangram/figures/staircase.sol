place big1 2 2 turn 7
place big2 1 2 turn 7
place medium 0 4 turn 5
place square 5 0 turn 1
place parallelogram 2 4 turn 3
place small1 4 0 turn 1
place small2 2 1 turn 7
