place big1 4 0 turn 3
place big2 4 0 turn 1
place medium 2 0 turn 1
place square 3 2 turn 1
place parallelogram 6 1 turn 3 flip
place small1 4 0 turn 7
place small2 2 1 turn 3
