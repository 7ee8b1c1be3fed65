place big1 2 3 turn 7
place big2 1 4 turn 5
place medium 2 1 turn 1
place square 2 0 turn 1
place parallelogram 4 0 turn 1 flip
place small1 4 0 turn 1
place small2 2 2 turn 3
