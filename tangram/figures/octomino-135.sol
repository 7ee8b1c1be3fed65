place big1 1 2 turn 1
place big2 0 2 turn 5
place medium 2 3 turn 3
place square 3 0 turn 1
place parallelogram 2 0 turn 1 flip
place small1 3 4 turn 3
place small2 1 2 turn 3
