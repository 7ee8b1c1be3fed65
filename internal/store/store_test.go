package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenSetsUpTheFile(t *testing.T) {
	// Folders are created, and the path may hold characters that mean
	// something in a URI.
	path := filepath.Join(t.TempDir(), "new folder", "a?b#c%20.db")
	s := open(t, path)
	if s.Path() != path {
		t.Errorf("Path() = %q, want %q", s.Path(), path)
	}
	var mode string
	var version, timeout int
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	if err := s.db.QueryRow("PRAGMA busy_timeout").Scan(&timeout); err != nil || timeout != 5000 {
		t.Errorf("busy_timeout = %d, %v; want 5000", timeout, err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != len(ms) {
		t.Errorf("user_version = %d, %v; want %d", version, err, len(ms))
	}
	// The file is where it was asked to be, not at a path cut at "?" or
	// with "%20" decoded.
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Errorf("database file %s: %v", path, err)
	}
	if s.Close() != nil {
		t.Fatal("close")
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() < 4096 {
		t.Errorf("database file %s after close: %v", path, err)
	}
}

func TestOpenRejectsNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	if _, err := s.db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(t.Context(), path); err == nil {
		t.Fatal("opened a file with schema version 99")
	}
}

func TestConcurrentOpenMigratesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := Open(t.Context(), path)
			if err == nil {
				err = s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

func TestGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	ctx := t.Context()
	if _, err := s.Game(ctx, "", "npuzzle", "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing game: %v, want ErrNotFound", err)
	}
	if err := s.DeleteGame(ctx, "", "npuzzle", "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleting a missing game: %v, want ErrNotFound", err)
	}
	if _, err := s.SaveGame(ctx, Game{Kind: "npuzzle"}, SaveLimits{}); err == nil {
		t.Fatal("saved a game without a name")
	}

	first, err := s.SaveGame(ctx, Game{Kind: "npuzzle", Name: "a", Board: "1 2/3 0", Data: []byte(`{"x":1}`), Moves: 3, Elapsed: 1500 * time.Millisecond}, SaveLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveGame(ctx, Game{Kind: "npuzzle", Name: "b", Board: "1 2/0 3", Moves: 1}, SaveLimits{}); err != nil {
		t.Fatal(err)
	}
	// The same slot name in another kind is another game.
	if _, err := s.SaveGame(ctx, Game{Kind: "dust", Name: "a", Board: "x"}, SaveLimits{}); err != nil {
		t.Fatal(err)
	}
	// Overwriting a keeps its creation time and makes it the newest.
	again, err := s.SaveGame(ctx, Game{Kind: "npuzzle", Name: "a", Board: "1 0/3 2", Data: []byte(`{"x":2}`), Moves: 4, Solved: true, Elapsed: 2 * time.Second}, SaveLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Created.Equal(first.Created) || !again.Updated.After(first.Updated) {
		t.Errorf("overwrite: created %v -> %v, updated %v -> %v", first.Created, again.Created, first.Updated, again.Updated)
	}

	list, _, err := s.Games(ctx, "", "npuzzle", Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "a" || list[1].Name != "b" {
		t.Fatalf("Games = %+v, want a then b", list)
	}
	if list[0].Data != nil || list[0].Board != "1 0/3 2" || list[0].Moves != 4 || !list[0].Solved || list[0].Elapsed != 2*time.Second {
		t.Errorf("listed %+v", list[0])
	}

	// Everything survives closing and reopening the file.
	s.Close()
	s = open(t, path)
	g, err := s.Game(ctx, "", "npuzzle", "a")
	if err != nil {
		t.Fatal(err)
	}
	if g.Board != "1 0/3 2" || string(g.Data) != `{"x":2}` || g.Moves != 4 || !g.Solved || g.Elapsed != 2*time.Second ||
		!g.Created.Equal(first.Created) || !g.Updated.Equal(again.Updated) {
		t.Errorf("reloaded %+v, saved %+v", g, again)
	}
	if d, err := s.Game(ctx, "", "dust", "a"); err != nil || d.Board != "x" {
		t.Errorf("dust a: %+v, %v", d, err)
	}

	if err := s.DeleteGame(ctx, "", "npuzzle", "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(ctx, "", "npuzzle", "a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted game: %v, want ErrNotFound", err)
	}
	if list, _, _ := s.Games(ctx, "", "npuzzle", Page{}); len(list) != 1 {
		t.Errorf("after delete: %+v", list)
	}
}

func TestTwoStoresShareAFile(t *testing.T) {
	// A server and a command-line tool open the same file.
	path := filepath.Join(t.TempDir(), "t.db")
	a, b := open(t, path), open(t, path)
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, s := range []*Store{a, b} {
		wg.Go(func() {
			for j := range 20 {
				if _, err := s.SaveGame(ctx, Game{Kind: "npuzzle", Name: string(rune('a'+i)) + string(rune('a'+j)), Board: "1 2/3 0"}, SaveLimits{}); err != nil {
					errs[i] = err
					return
				}
				if _, _, err := s.Games(ctx, "", "npuzzle", Page{}); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if list, _, err := a.Games(ctx, "", "npuzzle", Page{}); err != nil || len(list) != 40 {
		t.Fatalf("%d games, %v; want 40", len(list), err)
	}
}

func TestPictures(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	ctx := t.Context()
	if _, err := s.Picture(ctx, "", "0123"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing picture: %v", err)
	}
	add := func(name string, data []byte) Picture {
		t.Helper()
		p, err := s.AddPicture(ctx, Picture{Name: name, Type: "image/png", Data: data, Width: 2, Height: 2}, PictureLimits{Keep: 3})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p1 := add("one", []byte("1"))
	if p1.ID != PictureID([]byte("1")) || len(p1.ID) != 20 {
		t.Fatalf("id %q", p1.ID)
	}
	// The same bytes again: one picture, first name kept.
	if p := add("again", []byte("1")); p.ID != p1.ID || p.Name != "one" {
		t.Errorf("re-added: %+v", p)
	}
	add("two", []byte("2"))
	add("three", []byte("3"))
	add("four", []byte("4")) // more than 3: the oldest, one, goes
	list, total, err := s.Pictures(ctx, "", Page{})
	if err != nil || total != 3 {
		t.Fatalf("%d pictures in all, %v; want 3", total, err)
	}
	// Pages, the newest first: two, then one.
	pg1, n1, _ := s.Pictures(ctx, "", Page{Limit: 2})
	pg2, n2, _ := s.Pictures(ctx, "", Page{Offset: 2, Limit: 2})
	if n1 != 3 || n2 != 3 || len(pg1) != 2 || len(pg2) != 1 || pg1[0].ID != list[0].ID || pg1[1].ID != list[1].ID || pg2[0].ID != list[2].ID {
		t.Errorf("pages %v %v, want %v in two", pg1, pg2, list)
	}
	var names []string
	for _, p := range list {
		names = append(names, p.Name)
		if p.Data != nil {
			t.Errorf("listed picture has data")
		}
	}
	if len(names) != 3 || names[0] != "four" || names[2] != "two" {
		t.Errorf("pictures %v, want four three two", names)
	}
	p, err := s.Picture(ctx, "", PictureID([]byte("3")))
	if err != nil || !bytes.Equal(p.Data, []byte("3")) || p.Type != "image/png" || p.Width != 2 {
		t.Errorf("picture three: %+v, %v", p, err)
	}
	if err := s.DeletePicture(ctx, "", p.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePicture(ctx, "", p.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
}

// TestAddPictureConcurrently adds many pictures at once, more than are
// kept: each AddPicture must succeed and return a picture that was stored
// (issue 22: a writer that waited for the lock used to stamp its row with a
// time older than the rows committed meanwhile, the trim deleted it, and
// AddPicture failed with "sql: no rows in result set"), and at the end the
// store holds exactly keep pictures.
func TestAddPictureConcurrently(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	ctx := t.Context()
	const n, workers, keep = 200, 16, 3
	var wg sync.WaitGroup
	errs := make(chan error, n)
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				data := []byte{byte(i), byte(i >> 8), 'p'}
				p, err := s.AddPicture(ctx, Picture{Name: "p", Type: "image/png", Data: data, Width: 1, Height: 1}, PictureLimits{Keep: keep})
				if err != nil {
					errs <- err
					continue
				}
				if p.ID != PictureID(data) || p.Created.IsZero() {
					errs <- errors.New("returned " + p.ID)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		if failed++; failed <= 3 {
			t.Error(err)
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d AddPicture calls failed", failed, n)
	}
	if list, _, err := s.Pictures(ctx, "", Page{}); err != nil || len(list) != keep {
		t.Errorf("%d pictures stored, %v; want %d", len(list), err, keep)
	}
}
