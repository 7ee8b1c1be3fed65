place big1 1 5 turn 7
place big2 0 5 turn 5
place medium 2 3 turn 3
place square 2 0 turn 1
place parallelogram 3 3 turn 1
place small1 2 1 turn 1
place small2 1 3 turn 5
