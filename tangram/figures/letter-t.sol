place big1 0 3 turn 7
place big2 1 2 turn 5
place medium 3 3 turn 3
place square 4 2 turn 1
place parallelogram 3 0 turn 1 flip
place small1 1 2 turn 1
place small2 2 3 turn 5
