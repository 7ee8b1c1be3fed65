place big1 3 3 turn 5
place big2 2 2 turn 3
place medium 2 2 turn 7
place square 4 1 turn 1
place parallelogram 2 1 turn 3 flip
place small1 2 4 turn 5
place small2 2 0 turn 1
