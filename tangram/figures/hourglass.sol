place big1 2 2 turn 5
place big2 2 2 turn 5
place medium 2 3 turn 5
place square 2 2 turn 1
place parallelogram 3 1 turn 1 flip
place small1 0 3 turn 5
place small2 1 2 turn 5
