place big1 2 0 turn 3
place big2 3 1 turn 1
place medium 1 4 turn 3
place square 2 3 turn 1
place parallelogram 1 1 turn 1 flip
place small1 1 1 turn 5
place small2 2 1 turn 7
