place big1 2 0 turn 1
place big2 2 0 turn 1
place medium 3 3 turn 7
place square 4 2 turn 1
place parallelogram 1 2 turn 1 flip
place small1 1 2 turn 1
place small2 4 3 turn 1
