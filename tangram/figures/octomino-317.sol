place big1 2 2 turn 5
place big2 3 3 turn 3
place medium 5 2 turn 1
place square 2 3 turn 1
place parallelogram 4 3 turn 3 flip
place small1 4 3 turn 5
place small2 0 1 turn 5
