place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 0 3 turn 7
place square 2 2 turn 1
place parallelogram 2 4 turn 3 flip
place small1 3 5 turn 3
place small2 2 3 turn 1
