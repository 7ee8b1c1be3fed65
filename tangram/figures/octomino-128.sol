place big1 2 1 turn 3
place big2 3 0 turn 1
place medium 2 0 turn 1
place square 3 2 turn 1
place parallelogram 3 0 turn 1
place small1 0 3 turn 5
place small2 0 1 turn 5
