place big1 3 1 turn 3
place big2 1 5 turn 5
place medium 2 3 turn 5
place square 1 0 turn 1
place parallelogram 3 1 turn 1 flip
place small1 4 3 turn 3
place small2 3 4 turn 3
