place big1 2 1 turn 3
place big2 2 1 turn 7
place medium 1 2 turn 5
place square 2 0 turn 1
place parallelogram 5 0 turn 1 flip
place small1 5 0 turn 1
place small2 5 2 turn 3
