place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 4 2 turn 1
place square 1 0 turn 1
place parallelogram 4 2 turn 1 flip
place small1 3 4 turn 5
place small2 2 3 turn 5
