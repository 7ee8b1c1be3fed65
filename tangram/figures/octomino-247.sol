place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 3 3 turn 3
place square 4 1 turn 1
place parallelogram 3 3 turn 3 flip
place small1 3 1 turn 1
place small2 1 3 turn 5
