place big1 3 0 turn 3
place big2 0 4 turn 5
place medium 2 1 turn 5
place square 3 1 turn 1
place parallelogram 1 0 turn 1 flip
place small1 1 2 turn 5
place small2 1 2 turn 3
