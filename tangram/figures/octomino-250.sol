place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 2 1 turn 7
place square 4 2 turn 1
place parallelogram 4 2 turn 3 flip
place small1 4 2 turn 3
place small2 3 3 turn 3
