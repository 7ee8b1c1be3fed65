place big1 4 1 turn 3
place big2 4 1 turn 1
place medium 2 3 turn 1
place square 3 3 turn 1
place parallelogram 5 1 turn 3 flip
place small1 5 1 turn 3
place small2 3 1 turn 5
