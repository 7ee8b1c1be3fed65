place big1 3 2 turn 3
place big2 0 2 turn 5
place medium 1 1 turn 5
place square 3 1 turn 1
place parallelogram 1 1 turn 1 flip
place small1 2 3 turn 5
place small2 3 0 turn 1
