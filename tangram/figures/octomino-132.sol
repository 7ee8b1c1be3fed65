place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 1 2 turn 7
place square 3 0 turn 1
place parallelogram 3 3 turn 3 flip
place small1 3 3 turn 3
place small2 2 4 turn 3
