place big1 2 0 turn 3
place big2 2 0 turn 1
place medium 4 0 turn 1
place square 4 2 turn 1
place parallelogram 4 0 turn 1 flip
place small1 3 2 turn 5
place small2 2 1 turn 5
