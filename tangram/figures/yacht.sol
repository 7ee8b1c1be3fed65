place big1 4 2 turn 3
place big2 2 2 turn 5
place medium 3 1 turn 5
place square 4 1 turn 1
place parallelogram 2 1 turn 3 flip
place small1 2 2 turn 5
place small2 2 0 turn 1
