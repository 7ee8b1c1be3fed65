place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 2 2 turn 5
place square 4 2 turn 1
place parallelogram 3 0 turn 1 flip
place small1 4 2 turn 3
place small2 2 0 turn 7
