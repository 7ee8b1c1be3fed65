place big1 1 3 turn 7
place big2 2 2 turn 5
place medium 3 1 turn 5
place square 4 2 turn 1
place parallelogram 2 1 turn 3 flip
place small1 5 1 turn 3
place small2 2 0 turn 1
