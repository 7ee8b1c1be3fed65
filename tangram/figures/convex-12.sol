place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 2 2 turn 1
place square 0 1 turn 1
place parallelogram 1 3 turn 3 flip
place small1 -1 2 turn 7
place small2 0 1 turn 3
