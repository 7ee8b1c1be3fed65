place big1 2 1 turn 1
place big2 1 0 turn 7
place medium 0 0 turn 7
place square 2 2 turn 1
place parallelogram 2 1 turn 3 flip
place small1 0 2 turn 5
place small2 4 2 turn 1
