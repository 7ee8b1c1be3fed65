place big1 3 2 turn 5
place big2 4 3 turn 3
place medium 0 1 turn 5
place square 3 3 turn 1
place parallelogram 4 3 turn 3
place small1 1 0 turn 1
place small2 4 1 turn 1
