place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 2 3 turn 5
place square 4 3 turn 1
place parallelogram 3 1 turn 1 flip
place small1 4 3 turn 3
place small2 2 1 turn 7
