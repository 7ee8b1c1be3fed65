place big1 4 2 turn 5
place big2 5 3 turn 3
place medium 0 1 turn 5
place square 3 2 turn 1
place parallelogram 3 1 turn 3 flip
place small1 5 3 turn 3
place small2 0 0 turn 7
