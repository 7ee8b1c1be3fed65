place big1 4 2 turn 5
place big2 5 3 turn 3
place medium 1 1 turn 5
place square 1 0 turn 1
place parallelogram 5 3 turn 3
place small1 2 0 turn 1
place small2 5 1 turn 1
