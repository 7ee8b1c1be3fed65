place big1 2 4 turn 5
place big2 2 4 turn 5
place medium 3 0 turn 1
place square 2 1 turn 1
place parallelogram 3 0 turn 1 flip
place small1 2 2 turn 5
place small2 1 1 turn 5
