place big1 2 3 turn 5
place big2 2 3 turn 3
place medium 2 3 turn 1
place square 2 0 turn 1
place parallelogram 2 3 turn 1 flip
place small1 4 1 turn 3
place small2 3 1 turn 1
