// Package store keeps saved games and uploaded pictures in one SQLite file,
// through the pure-Go driver modernc.org/sqlite.
//
// The file is opened in WAL mode with a busy timeout, so a server and a
// command-line tool can use it at the same time. The schema is a list of
// embedded SQL migrations applied in order; PRAGMA user_version records how
// many have run. A game is stored under a kind (the game, such as "npuzzle")
// and a slot name chosen by the player, as the family's text encoding of the
// current position plus a JSON document that belongs to the game, with a few
// metadata columns (moves, playing time, solved) for listings.
//
// Every game, picture and web job has an owner, the client that made it
// (the web app's client identity): the calls name it, and another owner's
// rows are not found. SaveLimits and PictureLimits bound what one owner and
// all owners keep, checked in the transaction that writes.
//
//	s, err := store.Open(ctx, path)
//	...
//	defer s.Close()
//	_, err = s.SaveGame(ctx, store.Game{Owner: client, Kind: "npuzzle", Name: "lunch break",
//		Board: "1 2 3/4 0 6/7 5 8", Data: []byte(`{}`), Moves: 12}, store.SaveLimits{Count: 100})
//	g, err := s.Game(ctx, client, "npuzzle", "lunch break")
package store
