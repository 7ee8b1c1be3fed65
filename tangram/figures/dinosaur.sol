place big1 3 3 turn 5
place big2 4 4 turn 3
place medium 0 2 turn 5
place square 3 0 turn 1
place parallelogram 1 0 turn 1 flip
place small1 1 0 turn 1
place small2 4 3 turn 1
