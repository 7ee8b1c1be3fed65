place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 3 3 turn 5
place square 1 0 turn 1
place parallelogram 4 1 turn 1 flip
place small1 5 3 turn 3
place small2 3 1 turn 7
