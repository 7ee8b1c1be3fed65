place big1 2 3 turn 5
place big2 2 3 turn 5
place medium 3 3 turn 1
place square 2 0 turn 1
place parallelogram 2 3 turn 3 flip
place small1 4 2 turn 1
place small2 3 3 turn 3
