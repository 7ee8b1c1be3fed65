place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 3 1 turn 7
place square 1 0 turn 1
place parallelogram 5 2 turn 3 flip
place small1 5 2 turn 3
place small2 4 3 turn 3
