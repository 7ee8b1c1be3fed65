package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"tessera/internal/catalog"
	"tessera/internal/store"
)

// game is one game of the app: a page, a menu entry, API calls and a kind
// of saved game, with the saved-game calls (/api/KIND/saves) shared by all.
// Adding a game means adding its entry to catalog.Games and its page's
// parts, declared in its file, to games.
type game struct {
	// Game is the page's entry in the catalogue's table of games (set by
	// gamesOf): Kind (the saved games' kind, the API prefix,
	// /api/KIND/..., the page's template templates/KIND.html and script
	// static/js/KIND.js), Title (the menu entry), Path (the page).
	catalog.Game
	// data is what the page's template sees as .Game.
	data func() any
	// api is the game's own API calls, under /api/KIND/; routes, when set,
	// adds more (the sliding puzzle's, as they were before api).
	api    apiCalls
	routes func(s *Server, m *http.ServeMux)
	// save checks a saved game sent by the page and returns it as stored:
	// Board, Data (the state, normalised), Moves, Elapsed, Solved. Errors
	// are apiErrors.
	save func(state json.RawMessage) (store.Game, error)
	// jobs, when set, returns the game's job kinds, by name.
	jobs func(s *Server) map[string]jobKind
	// auto is the title of the Auto button, what it does; budgets, when
	// set, is the Auto panel's menu of search times.
	auto    string
	budgets []budgetOption
}

// apiCalls are a game's own API calls, keyed by "METHOD name" for the call
// METHOD /api/KIND/name, the kind the game's.
type apiCalls map[string]func(s *Server, r *http.Request) (int, any, error)

// games are the app's pages in the order of catalog.Games, the one table
// of games, which gives each its kind, title and path; each page's own
// parts are declared in its file and joined to its entry here by kind.
var games = gamesOf(map[string]*game{
	"npuzzle": npuzzleGame, "dust": dustGame, "samegame": samegameGame, "edgematch": edgematchGame,
	"jigsaw": jigsawGame, "gaps": gapsGame, "tangram": tangramGame,
})

// gamesOf joins the pages, by kind, to the entries of catalog.Games, in
// its order; a game of the table without a page, or a page without a game,
// is a programmer's error.
func gamesOf(pages map[string]*game) []*game {
	if len(pages) != len(catalog.Games) {
		panic(fmt.Sprintf("web: %d pages for the catalogue's %d games", len(pages), len(catalog.Games)))
	}
	list := make([]*game, len(catalog.Games))
	for i, c := range catalog.Games {
		g, ok := pages[c.Kind]
		if !ok {
			panic("web: no page for the catalogue's game " + c.Kind)
		}
		g.Game = c
		list[i] = g
	}
	return list
}

// menuPage is what the template of a page sees that shows no more from
// the server than its solvers' menu.
type menuPage struct {
	Solvers []catalog.Menu
}

// maxSlotName bounds a save slot's name, in characters.
const maxSlotName = 64

// slotName checks a save slot's name from the URL: 1 to maxSlotName
// printable characters, no slashes, not only spaces.
func slotName(r *http.Request) (string, error) {
	name := r.PathValue("name")
	switch {
	case strings.TrimSpace(name) == "":
		return "", errorf(http.StatusBadRequest, "empty save name")
	case !utf8.ValidString(name):
		return "", errorf(http.StatusBadRequest, "save name is not UTF-8")
	case utf8.RuneCountInString(name) > maxSlotName:
		return "", errorf(http.StatusBadRequest, "save name longer than %d characters", maxSlotName)
	case strings.ContainsAny(name, `/\`):
		return "", errorf(http.StatusBadRequest, "save name with a slash")
	case strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0:
		return "", errorf(http.StatusBadRequest, "save name with a control character")
	}
	return name, nil
}

// saveInfo describes a saved game in lists and answers.
type saveInfo struct {
	Name      string    `json:"name"`
	Board     string    `json:"board"`
	Moves     int       `json:"moves"`
	ElapsedMS int64     `json:"elapsed_ms"`
	Solved    bool      `json:"solved"`
	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`
}

func infoOf(g store.Game) saveInfo {
	return saveInfo{Name: g.Name, Board: g.Board, Moves: g.Moves, ElapsedMS: g.Elapsed.Milliseconds(),
		Solved: g.Solved, Created: g.Created, Updated: g.Updated}
}

// savedGame is the answer of GET /api/KIND/saves/NAME.
type savedGame struct {
	saveInfo
	State json.RawMessage `json:"state"`
}

// storeError maps a store error to an answer: 404 for a missing game or
// picture (or another client's), 507 for a quota reached, else the error
// itself (a logged 500).
func storeError(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errorf(http.StatusNotFound, "%s", strings.TrimPrefix(err.Error(), store.ErrNotFound.Error()+": "))
	case errors.Is(err, store.ErrQuota):
		return errorf(http.StatusInsufficientStorage, "%s", strings.TrimPrefix(err.Error(), store.ErrQuota.Error()+": "))
	}
	return err
}

// Save lists come in pages: ?limit= entries (defaultSavePage, at most
// maxSavePage) after the first ?offset=.
const (
	defaultSavePage = 50
	maxSavePage     = 200
)

// savesPage reads a list's ?offset= (0 or more) and ?limit= (1 to
// maxSavePage).
func savesPage(r *http.Request) (store.Page, error) {
	p := store.Page{Limit: defaultSavePage}
	read := func(name string, v *int, lo, hi int) error {
		text := r.URL.Query().Get(name)
		if text == "" {
			return nil
		}
		n, err := strconv.Atoi(text)
		if err != nil || n < lo || n > hi {
			return errorf(http.StatusBadRequest, "%s %q: want a whole number from %d to %d", name, text, lo, hi)
		}
		*v = n
		return nil
	}
	if err := read("offset", &p.Offset, 0, 1<<30); err != nil {
		return p, err
	}
	return p, read("limit", &p.Limit, 1, maxSavePage)
}

// savesList is the answer of GET /api/KIND/saves: a page of the client's
// saves, the newest first, how many there are in all, and the offset of
// the next page (absent on the last).
type savesList struct {
	Saves []saveInfo `json:"saves"`
	Total int        `json:"total"`
	Next  *int       `json:"next,omitempty"`
}

func (s *Server) listSaves(g *game) apiHandler {
	return func(r *http.Request) (int, any, error) {
		page, err := savesPage(r)
		if err != nil {
			return 0, nil, err
		}
		if err := s.adoptOrphans(r); err != nil {
			return 0, nil, err
		}
		games, total, err := s.store.Games(r.Context(), ownerOf(r), g.Kind, page)
		if err != nil {
			return 0, nil, err
		}
		list := savesList{Saves: make([]saveInfo, len(games)), Total: total}
		for i, sg := range games {
			list.Saves[i] = infoOf(sg)
		}
		if next := page.Offset + len(games); next < total {
			list.Next = &next
		}
		return http.StatusOK, list, nil
	}
}

func (s *Server) loadSave(g *game) apiHandler {
	return func(r *http.Request) (int, any, error) {
		name, err := slotName(r)
		if err != nil {
			return 0, nil, err
		}
		sg, err := s.store.Game(r.Context(), ownerOf(r), g.Kind, name)
		if err != nil {
			return 0, nil, storeError(err)
		}
		return http.StatusOK, savedGame{infoOf(sg), json.RawMessage(sg.Data)}, nil
	}
}

// maxSaveBytes bounds the body of a save.
const maxSaveBytes = 1 << 20

func (s *Server) putSave(g *game) apiHandler {
	return func(r *http.Request) (int, any, error) {
		name, err := slotName(r)
		if err != nil {
			return 0, nil, err
		}
		var state json.RawMessage
		if err := decodeJSON(r, maxSaveBytes, &state); err != nil {
			return 0, nil, err
		}
		sg, err := g.save(state)
		if err != nil {
			return 0, nil, err
		}
		sg.Owner, sg.Kind, sg.Name = ownerOf(r), g.Kind, name
		lim := store.SaveLimits{Count: s.cfg.MaxSaves, Bytes: s.cfg.MaxSaveBytes, Total: s.cfg.MaxSaveBytesTotal}
		if sg, err = s.store.SaveGame(r.Context(), sg, lim); err != nil {
			return 0, nil, storeError(err)
		}
		return http.StatusOK, infoOf(sg), nil
	}
}

func (s *Server) deleteSave(g *game) apiHandler {
	return func(r *http.Request) (int, any, error) {
		name, err := slotName(r)
		if err != nil {
			return 0, nil, err
		}
		if err := s.store.DeleteGame(r.Context(), ownerOf(r), g.Kind, name); err != nil {
			return 0, nil, storeError(err)
		}
		return http.StatusNoContent, nil, nil
	}
}

// saveOf returns a game's save check: the state the page sent, decoded
// strictly into an S, then checked by check.
func saveOf[S any](check func(st S) (store.Game, error)) func(json.RawMessage) (store.Game, error) {
	return func(data json.RawMessage) (store.Game, error) {
		var st S
		if err := strictUnmarshal(data, &st); err != nil {
			return store.Game{}, err
		}
		return check(st)
	}
}

// strictUnmarshal decodes one JSON object into v, rejecting unknown fields
// and null (which decodes to nothing, and would store an empty game).
func strictUnmarshal(data []byte, v any) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return errorf(http.StatusBadRequest, "malformed saved game: null, want an object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, "malformed saved game: %v", err)
	}
	return nil
}

// stored finishes a checked save: g with st, normalised to JSON, as its
// data and elapsedMS as its playing time.
func stored(g store.Game, st any, elapsedMS int64) (store.Game, error) {
	norm, err := json.Marshal(st)
	if err != nil {
		return store.Game{}, err
	}
	el, err := elapsed(elapsedMS)
	if err != nil {
		return store.Game{}, err
	}
	g.Data, g.Elapsed = norm, el
	return g, nil
}

// maxElapsedMS bounds a save's playing time: ten years.
const maxElapsedMS = 10 * 365 * 24 * 3600 * 1000

// elapsed returns a save's elapsed_ms as a duration, refusing a negative
// time and one over maxElapsedMS (which overflowed time.Duration and was
// listed as -1).
func elapsed(ms int64) (time.Duration, error) {
	if ms < 0 || ms > maxElapsedMS {
		return 0, errorf(http.StatusBadRequest, "elapsed_ms %d: want 0 to %d (negative, or over ten years)", ms, int64(maxElapsedMS))
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// adoptOrphans gives the saves and pictures of no client to the request's
// client, the first time a client lists them (Config.AdoptOrphans).
func (s *Server) adoptOrphans(r *http.Request) error {
	if !s.orphans.CompareAndSwap(true, false) {
		return nil
	}
	n, err := s.store.AdoptOrphans(r.Context(), ownerOf(r))
	if err != nil {
		s.orphans.Store(true)
		return err
	}
	s.log.InfoContext(r.Context(), "saves and pictures of no client adopted", "client", ownerOf(r), "count", n)
	return nil
}
