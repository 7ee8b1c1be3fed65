place big1 2 1 turn 3
place big2 2 0 turn 7
place medium 1 2 turn 5
place square 2 0 turn 1
place parallelogram 4 2 turn 3 flip
place small1 5 1 turn 3
place small2 2 1 turn 5
