place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 2 4 turn 3
place square 1 2 turn 1
place parallelogram 2 4 turn 3 flip
place small1 0 3 turn 7
place small2 1 2 turn 7
