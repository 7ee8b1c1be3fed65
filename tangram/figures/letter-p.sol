place big1 2 3 turn 5
place big2 3 2 turn 1
place medium 0 2 turn 7
place square 1 0 turn 1
place parallelogram 1 3 turn 3
place small1 2 3 turn 1
place small2 2 2 turn 7
