place big1 1 2 turn 7
place big2 0 3 turn 5
place medium 2 3 turn 7
place square 3 2 turn 1
place parallelogram 1 2 turn 1 flip
place small1 3 0 turn 1
place small2 3 3 turn 1
