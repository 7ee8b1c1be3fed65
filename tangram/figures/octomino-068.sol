place big1 2 1 turn 1
place big2 1 0 turn 7
place medium 0 0 turn 7
place square 4 0 turn 1
place parallelogram 2 1 turn 3 flip
place small1 4 3 turn 3
place small2 1 2 turn 3
