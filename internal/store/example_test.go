package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"tessera/internal/store"
)

func Example() {
	dir, err := os.MkdirTemp("", "store-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()

	s, err := store.Open(ctx, filepath.Join(dir, "games.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	_, err = s.SaveGame(ctx, store.Game{Owner: "c0ffee", Kind: "npuzzle", Name: "lunch break",
		Board: "1 2 3/4 0 6/7 5 8", Data: []byte(`{"picture":"sunset"}`), Moves: 12}, store.SaveLimits{Count: 100})
	if err != nil {
		log.Fatal(err)
	}
	g, err := s.Game(ctx, "c0ffee", "npuzzle", "lunch break")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Board, g.Moves, string(g.Data))
	// Output: 1 2 3/4 0 6/7 5 8 12 {"picture":"sunset"}
}
