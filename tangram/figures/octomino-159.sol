place big1 3 0 turn 3
place big2 3 0 turn 1
place medium 5 1 turn 1
place square 1 0 turn 1
place parallelogram 5 1 turn 1 flip
place small1 4 3 turn 5
place small2 3 2 turn 5
