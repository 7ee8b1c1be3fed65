place big1 3 0 turn 3
place big2 2 2 turn 1
place medium 2 1 turn 5
place square 1 0 turn 1
place parallelogram 2 1 turn 1 flip
place small1 4 1 turn 3
place small2 0 3 turn 7
