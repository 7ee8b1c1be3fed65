place big1 2 0 turn 3
place big2 0 5 turn 5
place medium 0 3 turn 5
place square 3 1 turn 1
place parallelogram 1 1 turn 1 flip
place small1 1 1 turn 5
place small2 2 2 turn 1
