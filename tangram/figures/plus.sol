place big1 3 0 turn 3
place big2 2 3 turn 5
place medium 3 4 turn 3
place square 1 1 turn 1
place parallelogram 2 1 turn 1 flip
place small1 3 2 turn 5
place small2 3 1 turn 3
