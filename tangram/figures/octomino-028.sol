place big1 2 0 turn 3
place big2 2 0 turn 7
place medium 1 1 turn 5
place square 5 0 turn 1
place parallelogram 1 1 turn 1 flip
place small1 3 1 turn 7
place small2 1 3 turn 3
