place big1 2 2 turn 5
place big2 3 3 turn 3
place medium 4 1 turn 1
place square 4 0 turn 1
place parallelogram 3 3 turn 3
place small1 3 2 turn 5
place small2 0 1 turn 5
