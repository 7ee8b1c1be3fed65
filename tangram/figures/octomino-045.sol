place big1 5 0 turn 3
place big2 5 0 turn 1
place medium 0 1 turn 5
place square 6 1 turn 1
place parallelogram 3 1 turn 3 flip
place small1 1 0 turn 1
place small2 3 0 turn 1
