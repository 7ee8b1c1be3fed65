place big1 3 2 turn 5
place big2 0 3 turn 7
place medium 1 0 turn 7
place square 1 1 turn 1
place parallelogram 2 1 turn 1 flip
place small1 1 4 turn 1
place small2 2 3 turn 3
