place big1 3 2 turn 3
place big2 3 2 turn 1
place medium 2 4 turn 1
place square 4 2 turn 1
place parallelogram 2 0 turn 1 flip
place small1 2 0 turn 1
place small2 2 2 turn 3
