place big1 1 3 turn 5
place big2 1 3 turn 3
place medium -1 1 turn 5
place square 0 3 turn 1
place parallelogram 1 3 turn 1 flip
place small1 0 5 turn 3
place small2 0 3 turn 7
