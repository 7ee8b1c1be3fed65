place big1 2 2 turn 3
place big2 2 2 turn 1
place medium 2 2 turn 5
place square 4 0 turn 1
place parallelogram 3 0 turn 1 flip
place small1 3 0 turn 1
place small2 4 1 turn 1
