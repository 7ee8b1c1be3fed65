place big1 3 2 turn 5
place big2 2 2 turn 3
place medium 2 3 turn 1
place square 2 2 turn 1
place parallelogram 2 1 turn 3 flip
place small1 2 1 turn 7
place small2 2 1 turn 1
