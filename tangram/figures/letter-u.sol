place big1 3 0 turn 3
place big2 2 1 turn 1
place medium 4 4 turn 3
place square 4 0 turn 1
place parallelogram 4 1 turn 1 flip
place small1 4 1 turn 1
place small2 3 1 turn 3
