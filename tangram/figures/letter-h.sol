place big1 1 3 turn 7
place big2 0 3 turn 5
place medium 1 4 turn 3
place square 3 3 turn 1
place parallelogram 3 1 turn 1
place small1 3 1 turn 3
place small2 0 0 turn 7
