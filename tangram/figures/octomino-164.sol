place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 4 3 turn 3
place square 1 0 turn 1
place parallelogram 4 3 turn 3 flip
place small1 4 1 turn 1
place small2 2 3 turn 5
