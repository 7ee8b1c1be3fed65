package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"tessera/mcts"
	"tessera/samegame"
)

func main() {
	pos := flag.Int("p", 1, "position")
	level := flag.Int("l", 3, "level")
	iters := flag.Int("n", 100, "iterations")
	dur := flag.Duration("t", 60*time.Second, "time")
	tabu := flag.Bool("tabu", true, "tabu")
	restart := flag.Bool("r", true, "restart")
	seed := flag.Uint64("seed", 1, "seed")
	flag.Parse()
	f, _ := os.Open("../shared/data/samegame/standard20.txt")
	set, err := samegame.ParseSet(f, samegame.Standard)
	if err != nil {
		panic(err)
	}
	root := samegame.NewPosition(set[*pos-1].Board, *tabu)
	ctx, cancel := context.WithTimeout(context.Background(), *dur)
	defer cancel()
	start := time.Now()
	res, err := mcts.NRPA(ctx, root, mcts.NRPAOptions{Level: *level, Iterations: *iters, Restart: *restart, Budget: mcts.Budget{Seed: *seed,
		Progress: func(best float64, s mcts.Stats) {}}})
	fmt.Printf("pos %d score %.0f playouts %d runs %d time %.1f err %v\n", *pos, res.Score, res.Stats.Playouts, res.Stats.Iterations, time.Since(start).Seconds(), err)
	moves := make([]samegame.Move, len(res.Moves))
	for i, g := range res.Moves {
		moves[i] = g.Move()
	}
	r, err := samegame.Replay(set[*pos-1].Board, moves)
	fmt.Println("replay", r.Score, r.Cleared, err)
}
