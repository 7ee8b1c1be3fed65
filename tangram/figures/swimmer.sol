place big1 5 0 turn 3
place big2 5 0 turn 1
place medium 1 2 turn 5
place square 1 0 turn 1
place parallelogram 2 0 turn 1 flip
place small1 2 0 turn 1
place small2 3 1 turn 1
