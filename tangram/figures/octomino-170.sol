place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 2 2 turn 7
place square 1 0 turn 1
place parallelogram 4 3 turn 3 flip
place small1 4 3 turn 3
place small2 3 4 turn 3
