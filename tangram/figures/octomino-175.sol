place big1 2 4 turn 5
place big2 2 4 turn 3
place medium 2 2 turn 3
place square 3 0 turn 1
place parallelogram 2 0 turn 1
place small1 1 0 turn 1
place small2 1 2 turn 5
