place big1 2 2 turn 5
place big2 3 4 turn 3
place medium 4 3 turn 1
place square 2 4 turn 1
place parallelogram 2 3 turn 3
place small1 3 4 turn 5
place small2 0 1 turn 5
