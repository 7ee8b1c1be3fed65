place big1 3 3 turn 5
place big2 2 2 turn 3
place medium 4 2 turn 3
place square 3 0 turn 1
place parallelogram 4 3 turn 3
place small1 2 2 turn 7
place small2 0 2 turn 7
