place big1 3 2 turn 5
place big2 3 2 turn 1
place medium 2 1 turn 7
place square 4 1 turn 1
place parallelogram 2 1 turn 3 flip
place small1 2 3 turn 1
place small2 0 1 turn 5
