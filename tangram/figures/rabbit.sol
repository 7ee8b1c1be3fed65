place big1 3 3 turn 5
place big2 3 3 turn 3
place medium 2 3 turn 7
place square 3 0 turn 1
place parallelogram 1 3 turn 1 flip
place small1 1 3 turn 1
place small2 3 3 turn 1
