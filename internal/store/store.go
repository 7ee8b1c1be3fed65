package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite" // the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound is returned for a game or picture that is not stored.
var ErrNotFound = errors.New("store: not found")

//go:embed migrations/*.sql
var migrationFS embed.FS

// Store is an open database. Its methods are safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string
}

// DefaultPath returns the database file used when none is named:
// tessera/tessera.db under the user's configuration folder
// (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config on Linux).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("store: no default database location (%v); name a file", err)
	}
	return filepath.Join(dir, "tessera", "tessera.db"), nil
}

// Open opens the database file at path, creating it and its folder if
// needed, and brings its schema up to date. It fails for a file whose
// schema is newer than this program knows.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: empty database path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// A file: URI, so that any character in the path is escaped; the
	// underscore parameters are the driver's: WAL lets a reader and a writer
	// work at once, the busy timeout waits for another process's write
	// instead of failing, and immediate transactions take the write lock at
	// BEGIN, so two processes migrating at once cannot both read an old
	// version.
	dsn := "file:" + (&url.URL{Path: abs}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s := &Store{db: db, path: abs}
	if err := s.migrateRetrying(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", abs, err)
	}
	return s, nil
}

// openRetry bounds how long Open retries a database that another opener
// holds; it matches the busy timeout in the DSN.
const openRetry = 5 * time.Second

// migrateRetrying runs migrate, retrying while SQLite answers SQLITE_BUSY.
// Two connections that open a new file at once both switch it to WAL, and
// SQLite reports that deadlock as BUSY at once, without calling the busy
// handler; the loser retries here until openRetry or ctx ends.
func (s *Store) migrateRetrying(ctx context.Context) error {
	deadline := time.Now().Add(openRetry)
	wait := time.Millisecond
	for {
		err := s.migrate(ctx)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (any extended code).
func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// Path returns the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// migration is one embedded schema change; version is its number.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in order. Their file names
// start with their version, 1, 2, ... without gaps.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, _ := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %s: name does not start with a version number", e.Name())
		}
		text, err := fs.ReadFile(migrationFS, "migrations/"+e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{v, e.Name(), string(text)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d", m.name, i+1)
		}
	}
	return ms, nil
}

// migrate applies the migrations the file has not seen, in one transaction.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var have int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return err
	}
	if have > len(ms) {
		return fmt.Errorf("schema version %d is newer than this program's %d", have, len(ms))
	}
	if have == len(ms) {
		return nil
	}
	for _, m := range ms[have:] {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(ms))); err != nil {
		return err
	}
	return tx.Commit()
}

// timeFormat stores times as fixed-width UTC text, so they sort as text.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) (time.Time, error) { return time.Parse(timeFormat, s) }

// Game is a saved game.
type Game struct {
	// Owner is the client the game belongs to (the web app's client
	// identity): only calls that name it see the game.
	Owner string
	Kind  string // the game, such as "npuzzle"
	Name  string // the save slot
	// Board is the current position in the family's text format.
	Board string
	// Data is the rest of the game state, a JSON document that only the
	// game reads. Games lists leave it nil.
	Data    []byte
	Moves   int
	Elapsed time.Duration
	Solved  bool
	Created time.Time // set by SaveGame when the slot is first written
	Updated time.Time // set by SaveGame
}

// ErrQuota is returned (wrapped, with the bound that was reached) for a
// save or picture over a bound of SaveLimits or PictureLimits.
var ErrQuota = errors.New("store: quota reached")

// SaveLimits bound the saved games; a zero field is no bound.
type SaveLimits struct {
	Count int   // slots one owner keeps
	Bytes int64 // bytes (board and data) one owner keeps
	Total int64 // bytes all owners keep together
}

// SaveGame writes g to its slot (g.Owner, g.Kind, g.Name), replacing what
// was there, and returns it as stored, with its times set. The slot keeps
// its creation time when it is overwritten. A save that would take its
// owner, or all owners, over lim (counted without the slot's old content)
// is refused with an error wrapping ErrQuota; the check and the write are
// one transaction.
func (s *Store) SaveGame(ctx context.Context, g Game, lim SaveLimits) (Game, error) {
	if g.Kind == "" || g.Name == "" {
		return Game{}, errors.New("store: a game needs a kind and a name")
	}
	if g.Data == nil {
		g.Data = []byte("{}")
	}
	size := int64(len(g.Board) + len(g.Data))
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Game{}, fmt.Errorf("store: saving %s %q: %w", g.Kind, g.Name, err)
	}
	defer tx.Rollback()
	if err := checkSaveQuota(ctx, tx, g, size, lim); err != nil {
		return Game{}, err
	}
	now := time.Now().UTC()
	var created string
	err = tx.QueryRowContext(ctx, `
		INSERT INTO games (owner, kind, name, board, data, moves, elapsed_ms, solved, created_at, updated_at, bytes)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (owner, kind, name) DO UPDATE SET
			board = excluded.board, data = excluded.data, moves = excluded.moves,
			elapsed_ms = excluded.elapsed_ms, solved = excluded.solved, updated_at = excluded.updated_at,
			bytes = excluded.bytes
		RETURNING created_at`,
		g.Owner, g.Kind, g.Name, g.Board, string(g.Data), g.Moves, g.Elapsed.Milliseconds(), g.Solved,
		formatTime(now), formatTime(now), size).Scan(&created)
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return Game{}, fmt.Errorf("store: saving %s %q: %w", g.Kind, g.Name, err)
	}
	g.Updated = now
	if g.Created, err = parseTime(created); err != nil {
		return Game{}, fmt.Errorf("store: %w", err)
	}
	g.Elapsed = g.Elapsed.Truncate(time.Millisecond)
	return g, nil
}

// checkSaveQuota refuses g, of size bytes, when it would take its owner or
// all owners over lim; the slot's old content does not count.
func checkSaveQuota(ctx context.Context, tx *sql.Tx, g Game, size int64, lim SaveLimits) error {
	if lim == (SaveLimits{}) {
		return nil
	}
	var count, bytes, total int64
	err := tx.QueryRowContext(ctx, `SELECT
		COUNT(*) FILTER (WHERE owner = ?1),
		COALESCE(SUM(bytes) FILTER (WHERE owner = ?1), 0),
		COALESCE(SUM(bytes), 0)
		FROM games WHERE NOT (owner = ?1 AND kind = ?2 AND name = ?3)`, g.Owner, g.Kind, g.Name).Scan(&count, &bytes, &total)
	if err != nil {
		return fmt.Errorf("store: counting saves: %w", err)
	}
	switch {
	case lim.Count > 0 && count+1 > int64(lim.Count):
		return fmt.Errorf("%w: you have %d saved games, the most kept for one player; delete some first", ErrQuota, count)
	case lim.Bytes > 0 && bytes+size > lim.Bytes:
		return fmt.Errorf("%w: your saved games would take %d KiB, over the %d KiB kept for one player; delete some first", ErrQuota, (bytes+size)>>10, lim.Bytes>>10)
	case lim.Total > 0 && total+size > lim.Total:
		return fmt.Errorf("%w: the server's room for saved games (%d MiB) is full; try again later", ErrQuota, lim.Total>>20)
	}
	return nil
}

// gameColumns are the columns scanGame reads, Data last.
const gameColumns = "owner, kind, name, board, moves, elapsed_ms, solved, created_at, updated_at"

type scanner interface{ Scan(dest ...any) error }

func scanGame(row scanner, withData bool) (Game, error) {
	var (
		g                Game
		elapsed          int64
		created, updated string
		data             string
	)
	dest := []any{&g.Owner, &g.Kind, &g.Name, &g.Board, &g.Moves, &elapsed, &g.Solved, &created, &updated}
	if withData {
		dest = append(dest, &data)
	}
	if err := row.Scan(dest...); err != nil {
		return Game{}, err
	}
	g.Elapsed = time.Duration(elapsed) * time.Millisecond
	if withData {
		g.Data = []byte(data)
	}
	var err1, err2 error
	g.Created, err1 = parseTime(created)
	g.Updated, err2 = parseTime(updated)
	return g, errors.Join(err1, err2)
}

// Game returns owner's game saved in slot name of kind, or ErrNotFound
// (also for a slot of that name that another owner has).
func (s *Store) Game(ctx context.Context, owner, kind, name string) (Game, error) {
	row := s.db.QueryRowContext(ctx, "SELECT "+gameColumns+", data FROM games WHERE owner = ? AND kind = ? AND name = ?", owner, kind, name)
	g, err := scanGame(row, true)
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("%w: no saved %s game %q", ErrNotFound, kind, name)
	}
	if err != nil {
		return Game{}, fmt.Errorf("store: loading %s %q: %w", kind, name, err)
	}
	return g, nil
}

// Page is a window on a list: Limit entries (0: all) after the first
// Offset.
type Page struct{ Offset, Limit int }

// sql returns the page's LIMIT and OFFSET (SQLite's -1: no limit).
func (p Page) sql() (limit, offset int) {
	limit = p.Limit
	if limit <= 0 {
		limit = -1
	}
	return limit, max(p.Offset, 0)
}

// Games lists owner's saved games of kind, the most recently saved first,
// without their Data: the entries of page, and how many there are in all.
func (s *Store) Games(ctx context.Context, owner, kind string, page Page) ([]Game, int, error) {
	var total int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM games WHERE owner = ? AND kind = ?", owner, kind).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: counting %s games: %w", kind, err)
	}
	limit, offset := page.sql()
	rows, err := s.db.QueryContext(ctx, "SELECT "+gameColumns+" FROM games WHERE owner = ? AND kind = ? ORDER BY updated_at DESC, name LIMIT ? OFFSET ?",
		owner, kind, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("store: listing %s games: %w", kind, err)
	}
	defer rows.Close()
	games := []Game{}
	for rows.Next() {
		g, err := scanGame(rows, false)
		if err != nil {
			return nil, 0, fmt.Errorf("store: listing %s games: %w", kind, err)
		}
		games = append(games, g)
	}
	return games, total, rows.Err()
}

// DeleteGame removes owner's saved game, or returns ErrNotFound.
func (s *Store) DeleteGame(ctx context.Context, owner, kind, name string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM games WHERE owner = ? AND kind = ? AND name = ?", owner, kind, name)
	if err != nil {
		return fmt.Errorf("store: deleting %s %q: %w", kind, name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no saved %s game %q", ErrNotFound, kind, name)
	}
	return nil
}

// Picture is an uploaded picture.
type Picture struct {
	Owner   string // the client it belongs to
	ID      string // hex digest of Data, set by AddPicture
	Name    string // a label for people
	Type    string // media type of Data
	Data    []byte // the encoded image; Pictures lists leave it nil
	Width   int
	Height  int
	Created time.Time
}

// PictureID returns the ID AddPicture gives to a picture with these bytes:
// the first 20 hex digits of their SHA-256.
func PictureID(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:10])
}

// PictureLimits bound the uploaded pictures; a zero field is no bound.
type PictureLimits struct {
	// Keep is how many pictures one owner keeps: past it, the owner's
	// oldest others are deleted.
	Keep int
	// Total is how many pictures all owners keep together: past it, an
	// upload is refused (ErrQuota).
	Total int
}

// AddPicture stores p under (p.Owner, PictureID(p.Data)) and returns it as
// stored. The same bytes stored twice by one owner are kept once, under the
// first name, and count as new. When the owner has more than lim.Keep
// pictures, its oldest others are deleted; the picture just added is never
// among them, so AddPicture returns a picture that is stored when it
// returns. A new picture past lim.Total is refused with an error wrapping
// ErrQuota.
//
// It is one immediate transaction: the time it records is read once the
// write lock is held, so pictures added at once are ordered as they were
// written, and the trim sees the new row.
func (s *Store) AddPicture(ctx context.Context, p Picture, lim PictureLimits) (Picture, error) {
	p.ID = PictureID(p.Data)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Picture{}, fmt.Errorf("store: adding picture: %w", err)
	}
	defer tx.Rollback()
	if lim.Total > 0 {
		var n int
		err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM pictures WHERE NOT (owner = ? AND id = ?)", p.Owner, p.ID).Scan(&n)
		if err != nil {
			return Picture{}, fmt.Errorf("store: counting pictures: %w", err)
		}
		if n+1 > lim.Total {
			return Picture{}, fmt.Errorf("%w: the server keeps at most %d uploaded pictures and is full; try again later", ErrQuota, lim.Total)
		}
	}
	// Read the clock under the write lock: taken before BEGIN, a writer
	// that waited for the lock would store an older time than rows
	// committed meanwhile, and the trim below would take it for the oldest.
	p.Created = time.Now().UTC()
	err = tx.QueryRowContext(ctx, `INSERT INTO pictures (owner, id, name, type, data, width, height, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (owner, id) DO UPDATE SET created_at = excluded.created_at
		RETURNING name, type, width, height`,
		p.Owner, p.ID, p.Name, p.Type, p.Data, p.Width, p.Height, formatTime(p.Created)).Scan(&p.Name, &p.Type, &p.Width, &p.Height)
	if err != nil {
		return Picture{}, fmt.Errorf("store: adding picture: %w", err)
	}
	if lim.Keep > 0 {
		// Keep the new picture and the keep-1 newest others, whatever the
		// clock says (it may step back).
		_, err = tx.ExecContext(ctx, `DELETE FROM pictures WHERE owner = ?1 AND id != ?2 AND id NOT IN
			(SELECT id FROM pictures WHERE owner = ?1 AND id != ?2 ORDER BY created_at DESC, id LIMIT ?3)`, p.Owner, p.ID, lim.Keep-1)
		if err != nil {
			return Picture{}, fmt.Errorf("store: trimming pictures: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return Picture{}, fmt.Errorf("store: adding picture: %w", err)
	}
	return p, nil
}

// pictureColumns are the columns scanPicture reads, Data last.
const pictureColumns = "owner, id, name, type, width, height, created_at"

func scanPicture(row scanner, withData bool) (Picture, error) {
	var p Picture
	var created string
	dest := []any{&p.Owner, &p.ID, &p.Name, &p.Type, &p.Width, &p.Height, &created}
	if withData {
		dest = append(dest, &p.Data)
	}
	if err := row.Scan(dest...); err != nil {
		return Picture{}, err
	}
	var err error
	p.Created, err = parseTime(created)
	return p, err
}

// Picture returns owner's picture with the given ID, or ErrNotFound (also
// for a picture that only other owners have).
func (s *Store) Picture(ctx context.Context, owner, id string) (Picture, error) {
	return s.picture(ctx, s.db.QueryRowContext(ctx, "SELECT "+pictureColumns+", data FROM pictures WHERE owner = ? AND id = ?", owner, id), id)
}

// PictureAnyOwner returns a picture with the given ID, whoever uploaded
// it (the bytes are the same: the ID is their digest), or ErrNotFound. It
// is for the jobs that run a picture whose submitter's ownership was
// checked when the job was submitted; requests use Picture.
func (s *Store) PictureAnyOwner(ctx context.Context, id string) (Picture, error) {
	return s.picture(ctx, s.db.QueryRowContext(ctx, "SELECT "+pictureColumns+", data FROM pictures WHERE id = ? LIMIT 1", id), id)
}

func (s *Store) picture(ctx context.Context, row *sql.Row, id string) (Picture, error) {
	p, err := scanPicture(row, true)
	if errors.Is(err, sql.ErrNoRows) {
		return Picture{}, fmt.Errorf("%w: no picture %q", ErrNotFound, id)
	}
	if err != nil {
		return Picture{}, fmt.Errorf("store: loading picture %q: %w", id, err)
	}
	return p, nil
}

// Pictures lists owner's pictures, the newest first, without their Data:
// the entries of page, and how many there are in all.
func (s *Store) Pictures(ctx context.Context, owner string, page Page) ([]Picture, int, error) {
	var total int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM pictures WHERE owner = ?", owner).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: counting pictures: %w", err)
	}
	limit, offset := page.sql()
	rows, err := s.db.QueryContext(ctx, "SELECT "+pictureColumns+" FROM pictures WHERE owner = ? ORDER BY created_at DESC, id LIMIT ? OFFSET ?",
		owner, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("store: listing pictures: %w", err)
	}
	defer rows.Close()
	pics := []Picture{}
	for rows.Next() {
		p, err := scanPicture(rows, false)
		if err != nil {
			return nil, 0, fmt.Errorf("store: listing pictures: %w", err)
		}
		pics = append(pics, p)
	}
	return pics, total, rows.Err()
}

// DeletePicture removes owner's picture, or returns ErrNotFound.
func (s *Store) DeletePicture(ctx context.Context, owner, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM pictures WHERE owner = ? AND id = ?", owner, id)
	if err != nil {
		return fmt.Errorf("store: deleting picture %q: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no picture %q", ErrNotFound, id)
	}
	return nil
}

// AdoptOrphans gives owner the saved games and pictures that belong to no
// client (owner "": stored before owners existed), but for those whose
// slot or picture owner has already; it returns how many it gave.
func (s *Store) AdoptOrphans(ctx context.Context, owner string) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store: adopting: %w", err)
	}
	defer tx.Rollback()
	n := 0
	for _, table := range []string{"games", "pictures"} {
		res, err := tx.ExecContext(ctx, "UPDATE OR IGNORE "+table+" SET owner = ? WHERE owner = ''", owner)
		if err != nil {
			return 0, fmt.Errorf("store: adopting %s: %w", table, err)
		}
		k, _ := res.RowsAffected()
		n += int(k)
	}
	return n, tx.Commit()
}

// Orphans counts the saved games and pictures that belong to no client.
func (s *Store) Orphans(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT (SELECT COUNT(*) FROM games WHERE owner = '') + (SELECT COUNT(*) FROM pictures WHERE owner = '')").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: counting orphans: %w", err)
	}
	return n, nil
}
