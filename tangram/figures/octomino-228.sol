place big1 2 2 turn 7
place big2 2 2 turn 3
place medium 3 1 turn 1
place square 2 2 turn 1
place parallelogram 2 1 turn 3 flip
place small1 4 0 turn 1
place small2 2 0 turn 1
