place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 2 2 turn 1
place square 3 3 turn 1
place parallelogram 2 2 turn 1 flip
place small1 4 2 turn 3
place small2 1 1 turn 1
