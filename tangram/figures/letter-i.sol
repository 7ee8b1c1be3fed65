place big1 3 2 turn 5
place big2 4 4 turn 3
place medium 2 3 turn 1
place square 4 0 turn 1
place parallelogram 3 3 turn 3
place small1 4 4 turn 3
place small2 1 1 turn 5
