place big1 2 1 turn 1
place big2 2 1 turn 7
place medium 2 2 turn 3
place square 3 3 turn 1
place parallelogram 2 0 turn 1
place small1 1 0 turn 1
place small2 1 2 turn 5
