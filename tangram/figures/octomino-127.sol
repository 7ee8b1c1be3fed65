place big1 3 2 turn 5
place big2 3 2 turn 3
place medium 0 3 turn 5
place square 1 0 turn 1
place parallelogram 1 1 turn 1 flip
place small1 2 3 turn 3
place small2 0 1 turn 7
