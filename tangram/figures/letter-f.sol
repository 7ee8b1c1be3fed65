place big1 0 1 turn 1
place big2 1 4 turn 7
place medium 1 2 turn 3
place square 1 3 turn 1
place parallelogram 2 5 turn 3 flip
place small1 1 0 turn 1
place small2 2 2 turn 1
