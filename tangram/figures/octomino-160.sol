place big1 0 3 turn 7
place big2 1 2 turn 5
place medium 2 2 turn 5
place square 1 0 turn 1
place parallelogram 3 0 turn 1 flip
place small1 4 2 turn 3
place small2 0 2 turn 7
