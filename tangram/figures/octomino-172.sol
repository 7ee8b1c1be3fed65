place big1 2 2 turn 1
place big2 1 2 turn 5
place medium 3 3 turn 3
place square 1 0 turn 1
place parallelogram 3 0 turn 1 flip
place small1 4 4 turn 3
place small2 2 2 turn 3
