place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 2 2 turn 1
place square 3 1 turn 1
place parallelogram 2 2 turn 1 flip
place small1 1 4 turn 5
place small2 0 3 turn 5
