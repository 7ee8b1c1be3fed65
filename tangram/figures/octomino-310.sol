place big1 2 2 turn 5
place big2 3 3 turn 3
place medium 4 3 turn 3
place square 3 3 turn 1
place parallelogram 4 3 turn 3 flip
place small1 4 1 turn 1
place small2 0 1 turn 5
