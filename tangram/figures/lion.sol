place big1 4 0 turn 3
place big2 0 4 turn 5
place medium 3 3 turn 3
place square 4 2 turn 1
place parallelogram 2 2 turn 1 flip
place small1 4 2 turn 3
place small2 2 3 turn 5
