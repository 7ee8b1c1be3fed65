place big1 2 2 turn 5
place big2 0 5 turn 5
place medium 1 1 turn 7
place square 3 0 turn 1
place parallelogram 2 3 turn 1 flip
place small1 0 0 turn 7
place small2 2 3 turn 3
