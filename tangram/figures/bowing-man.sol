place big1 5 2 turn 3
place big2 5 2 turn 1
place medium 2 4 turn 1
place square 3 3 turn 1
place parallelogram 4 0 turn 1 flip
place small1 4 0 turn 1
place small2 4 2 turn 3
