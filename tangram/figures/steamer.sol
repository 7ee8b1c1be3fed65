place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 3 0 turn 7
place square 3 2 turn 1
place parallelogram 5 1 turn 3 flip
place small1 3 2 turn 5
place small2 1 1 turn 3
