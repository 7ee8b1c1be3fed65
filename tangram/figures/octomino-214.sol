place big1 3 2 turn 5
place big2 4 4 turn 3
place medium 0 1 turn 5
place square 2 2 turn 1
place parallelogram 3 3 turn 3
place small1 4 4 turn 3
place small2 0 0 turn 7
