place big1 -2 2 turn 7
place big2 -2 4 turn 7
place medium 0 4 turn 3
place square -1 2 turn 1
place parallelogram 0 4 turn 3 flip
place small1 -2 3 turn 7
place small2 -1 2 turn 7
