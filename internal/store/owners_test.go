package store

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestOwnersAreApart replays issue 38's attack on the store: client B
// lists, reads, overwrites and deletes A's saves and pictures by their
// names, and sees none of them.
func TestOwnersAreApart(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	ctx := t.Context()
	a, b := "aaaa", "bbbb"
	if _, err := s.SaveGame(ctx, Game{Owner: a, Kind: "npuzzle", Name: "mine", Board: "A"}, SaveLimits{}); err != nil {
		t.Fatal(err)
	}
	if list, n, err := s.Games(ctx, b, "npuzzle", Page{}); err != nil || len(list) != 0 || n != 0 {
		t.Errorf("B lists %v (%d), %v; want none", list, n, err)
	}
	if _, err := s.Game(ctx, b, "npuzzle", "mine"); !errors.Is(err, ErrNotFound) {
		t.Errorf("B reads A's save: %v", err)
	}
	if err := s.DeleteGame(ctx, b, "npuzzle", "mine"); !errors.Is(err, ErrNotFound) {
		t.Errorf("B deletes A's save: %v", err)
	}
	// B's save of the same name is B's own slot: A's stays as it was.
	if _, err := s.SaveGame(ctx, Game{Owner: b, Kind: "npuzzle", Name: "mine", Board: "B"}, SaveLimits{}); err != nil {
		t.Fatal(err)
	}
	if g, err := s.Game(ctx, a, "npuzzle", "mine"); err != nil || g.Board != "A" {
		t.Errorf("A's save after B wrote the same name: %+v, %v", g, err)
	}

	pa, err := s.AddPicture(ctx, Picture{Owner: a, Name: "pa", Type: "image/png", Data: []byte("A's"), Width: 1, Height: 1}, PictureLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if list, n, err := s.Pictures(ctx, b, Page{}); err != nil || len(list) != 0 || n != 0 {
		t.Errorf("B lists pictures %v, %v; want none", list, err)
	}
	if _, err := s.Picture(ctx, b, pa.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("B reads A's picture: %v", err)
	}
	if err := s.DeletePicture(ctx, b, pa.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("B deletes A's picture: %v", err)
	}
	if p, err := s.PictureAnyOwner(ctx, pa.ID); err != nil || string(p.Data) != "A's" {
		t.Errorf("PictureAnyOwner: %+v, %v", p, err)
	}
	// Trimming to Keep counts the owner's pictures only.
	for i := range 3 {
		if _, err := s.AddPicture(ctx, Picture{Owner: b, Name: "pb", Type: "image/png", Data: fmt.Appendf(nil, "B%d", i), Width: 1, Height: 1}, PictureLimits{Keep: 2}); err != nil {
			t.Fatal(err)
		}
	}
	if list, _, _ := s.Pictures(ctx, b, Page{}); len(list) != 2 {
		t.Errorf("B keeps %d pictures, want 2", len(list))
	}
	if _, err := s.Picture(ctx, a, pa.ID); err != nil {
		t.Errorf("B's trim deleted A's picture: %v", err)
	}
	// The total bound refuses a new picture, not a repeated one.
	lim := PictureLimits{Keep: 10, Total: 3}
	if _, err := s.AddPicture(ctx, Picture{Owner: a, Type: "image/png", Data: []byte("new"), Width: 1, Height: 1}, lim); !errors.Is(err, ErrQuota) {
		t.Errorf("a fourth picture past Total 3: %v, want ErrQuota", err)
	}
	if _, err := s.AddPicture(ctx, Picture{Owner: a, Type: "image/png", Data: []byte("A's"), Width: 1, Height: 1}, lim); err != nil {
		t.Errorf("A's picture again at Total: %v", err)
	}
}

func TestSaveQuotasAndPaging(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	ctx := t.Context()
	lim := SaveLimits{Count: 3, Bytes: 100, Total: 150}
	save := func(owner, name string, size int) error {
		_, err := s.SaveGame(ctx, Game{Owner: owner, Kind: "k", Name: name, Board: strings.Repeat("x", size-2)}, lim)
		return err
	}
	for i := range 3 {
		if err := save("a", fmt.Sprint(i), 20); err != nil {
			t.Fatal(err)
		}
	}
	if err := save("a", "3", 20); !errors.Is(err, ErrQuota) || !strings.Contains(err.Error(), "3 saved games") {
		t.Errorf("a fourth save past Count 3: %v", err)
	}
	if err := save("a", "0", 60); err != nil { // an overwrite counts without the old content: 20+20+60
		t.Errorf("overwriting a slot within the bytes: %v", err)
	}
	if err := save("a", "0", 61); !errors.Is(err, ErrQuota) || !strings.Contains(err.Error(), "KiB") {
		t.Errorf("a save past Bytes 100: %v", err)
	}
	if err := save("b", "0", 51); !errors.Is(err, ErrQuota) || !strings.Contains(err.Error(), "full") {
		t.Errorf("a save past Total 150 (100 + 51): %v", err)
	}
	if err := save("b", "0", 50); err != nil {
		t.Errorf("a save within Total: %v", err)
	}
	// Pages, the newest first.
	all, n, err := s.Games(ctx, "a", "k", Page{})
	if err != nil || n != 3 || len(all) != 3 {
		t.Fatalf("all: %d of %d, %v", len(all), n, err)
	}
	p1, n1, _ := s.Games(ctx, "a", "k", Page{Limit: 2})
	p2, _, _ := s.Games(ctx, "a", "k", Page{Offset: 2, Limit: 2})
	if n1 != 3 || len(p1) != 2 || len(p2) != 1 || p1[0].Name != all[0].Name || p1[1].Name != all[1].Name || p2[0].Name != all[2].Name {
		t.Errorf("pages %v %v, want %v in two", p1, p2, all)
	}
}

func TestJobRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	ctx := t.Context()
	for _, id := range []string{"j1", "j2", "j3"} {
		if err := s.AddJob(ctx, JobRef{ID: id, Owner: "a", Address: "10.0.0.1", Kind: "npuzzle.solve"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddJob(ctx, JobRef{ID: "j1", Owner: "b"}); err == nil {
		t.Error("a job id recorded twice")
	}
	if err := s.FinishJob(ctx, "j2"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path) // as after a restart
	open, err := s.OpenJobs(ctx)
	if err != nil || len(open) != 2 || open[0].ID != "j1" || open[1].ID != "j3" || open[0].Owner != "a" || open[0].Address != "10.0.0.1" {
		t.Errorf("open jobs %+v, %v; want j1 and j3 of a", open, err)
	}
	if j, err := s.Job(ctx, "j2"); err != nil || !j.Finished || j.Owner != "a" {
		t.Errorf("j2: %+v, %v", j, err)
	}
	if _, err := s.Job(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown job: %v", err)
	}
}

// TestMigrationKeepsOldRows opens a file of schema 1 with a save and a
// picture: they survive the migration to owners, owned by no client ("").
func TestMigrationKeepsOldRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{ms[0].sql, "PRAGMA user_version = 1",
		`INSERT INTO games VALUES ('npuzzle', 'old', '1 2/3 0', '{}', 5, 10, 0, '2026-01-01T00:00:00.000000000Z', '2026-01-01T00:00:00.000000000Z')`,
		`INSERT INTO pictures VALUES ('0123456789abcdef0123', 'p', 'image/png', x'00', 1, 1, '2026-01-01T00:00:00.000000000Z')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	db.Close()
	s := open(t, path)
	if g, err := s.Game(t.Context(), "", "npuzzle", "old"); err != nil || g.Moves != 5 {
		t.Errorf("old save: %+v, %v", g, err)
	}
	if _, err := s.Picture(t.Context(), "", "0123456789abcdef0123"); err != nil {
		t.Errorf("old picture: %v", err)
	}
	// A client adopts them (not a slot it has already).
	if _, err := s.SaveGame(t.Context(), Game{Owner: "me", Kind: "npuzzle", Name: "old", Board: "mine"}, SaveLimits{}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Orphans(t.Context()); n != 2 || err != nil {
		t.Errorf("orphans %d, %v; want 2", n, err)
	}
	if n, err := s.AdoptOrphans(t.Context(), "me"); n != 1 || err != nil {
		t.Errorf("adopted %d, %v; want 1 (the picture)", n, err)
	}
	if g, _ := s.Game(t.Context(), "me", "npuzzle", "old"); g.Board != "mine" {
		t.Errorf("the adopter's own slot was replaced: %+v", g)
	}
	if _, err := s.Picture(t.Context(), "me", "0123456789abcdef0123"); err != nil {
		t.Errorf("adopted picture: %v", err)
	}
}
