place big1 3 2 turn 5
place big2 3 2 turn 1
place medium 2 1 turn 7
place square 1 1 turn 1
place parallelogram 2 1 turn 3 flip
place small1 0 0 turn 7
place small2 2 4 turn 7
