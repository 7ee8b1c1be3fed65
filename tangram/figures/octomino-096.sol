place big1 3 0 turn 3
place big2 3 4 turn 3
place medium 2 3 turn 3
place square 1 0 turn 1
place parallelogram 4 0 turn 1
place small1 3 1 turn 5
place small2 3 3 turn 1
