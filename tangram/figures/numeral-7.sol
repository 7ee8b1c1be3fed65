place big1 3 6 turn 5
place big2 3 3 turn 3
place medium 2 2 turn 3
place square 3 3 turn 1
place parallelogram 2 5 turn 3 flip
place small1 2 0 turn 1
place small2 3 2 turn 1
