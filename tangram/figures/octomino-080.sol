place big1 4 0 turn 3
place big2 4 0 turn 1
place medium 2 2 turn 3
place square 5 1 turn 1
place parallelogram 2 0 turn 1
place small1 1 0 turn 1
place small2 1 2 turn 5
