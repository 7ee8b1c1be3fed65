place big1 5 3 turn 5
place big2 0 3 turn 5
place medium 2 2 turn 5
place square 3 0 turn 1
place parallelogram 3 1 turn 1
place small1 2 3 turn 5
place small2 2 2 turn 7
