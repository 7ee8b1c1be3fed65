place big1 2 2 turn 3
place big2 2 2 turn 1
place medium 2 2 turn 3
place square 1 4
place parallelogram 0 2 turn 3
place small1 3 0 turn 1
place small2 0 2 turn 5
