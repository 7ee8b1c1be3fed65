place big1 0 0 turn 1
place big2 1 3 turn 3
place medium 0 2 turn 3
place square 2 2 turn 1
place parallelogram -1 1 turn 1 flip
place small1 1 3 turn 3
place small2 -1 3 turn 3
