place big1 3 3 turn 5
place big2 3 3 turn 3
place medium 1 1 turn 5
place square 4 2 turn 1
place parallelogram 4 5 turn 3
place small1 1 2 turn 1
place small2 1 3 turn 3
