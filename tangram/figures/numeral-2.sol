place big1 4 3 turn 3
place big2 0 2 turn 5
place medium 2 4 turn 1
place square 2 2 turn 1
place parallelogram 3 0 turn 1
place small1 2 1 turn 5
place small2 1 2 turn 3
