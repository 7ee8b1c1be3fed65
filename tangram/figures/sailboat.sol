place big1 3 0 turn 3
place big2 2 3 turn 5
place medium 2 1 turn 5
place square 1 0 turn 1
place parallelogram 2 2 turn 1 flip
place small1 2 2 turn 1
place small2 2 2 turn 3
