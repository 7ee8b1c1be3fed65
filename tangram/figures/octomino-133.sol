place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 3 2 turn 1
place square 3 0 turn 1
place parallelogram 3 2 turn 1 flip
place small1 2 4 turn 5
place small2 1 3 turn 5
