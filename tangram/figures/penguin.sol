place big1 2 1 turn 3
place big2 2 1 turn 1
place medium 4 4 turn 1
place square 1 0 turn 1
place parallelogram 2 3 turn 1 flip
place small1 2 1 turn 3
place small2 1 3 turn 7
