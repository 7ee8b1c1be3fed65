place big1 2 3 turn 7
place big2 0 0 turn 7
place medium 1 1 turn 7
place square 3 0 turn 1
place parallelogram 5 1 turn 3 flip
place small1 4 1 turn 1
place small2 3 1 turn 5
