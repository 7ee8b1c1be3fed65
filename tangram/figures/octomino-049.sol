place big1 5 2 turn 5
place big2 6 3 turn 3
place medium 1 1 turn 5
place square 1 0 turn 1
place parallelogram 4 1 turn 3 flip
place small1 6 3 turn 3
place small2 1 0 turn 7
