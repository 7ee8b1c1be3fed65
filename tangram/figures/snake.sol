place big1 4 0 turn 3
place big2 3 4 turn 3
place medium 3 3 turn 3
place square 2 4 turn 1
place parallelogram 3 3 turn 3 flip
place small1 1 4 turn 1
place small2 4 1 turn 3
