place big1 2 5 turn 5
place big2 2 5 turn 5
place medium 3 2 turn 3
place square 1 0 turn 1
place parallelogram 3 3 turn 3
place small1 3 0 turn 1
place small2 2 3 turn 5
