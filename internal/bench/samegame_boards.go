package bench

import (
	"context"
	"io"
	"slices"
	"strings"

	"tessera/internal/catalog"
	"tessera/samegame"
)

// Prepare reads the boards a command line names: those of the set file
// set (stdin for "-"; rulesName its rules, "": the file's), or else the
// random boards of random (drawn from Options.Seed); then the numbers of
// those to run (boards; "": all), and checks that every solver of Algos
// plays their rules. A mistake, or fewer than one Workers, is a
// UsageError.
func (s *SameGame) Prepare(stdin io.Reader, set, rulesName string, random SameGameRandom, boards string) error {
	if s.Workers < 1 {
		return Usagef("-workers must be at least 1")
	}
	var err error
	if set != "" {
		if s.Entries, s.Rules, err = ReadSameGameSet(stdin, set, rulesName); err != nil {
			return err
		}
	} else {
		rules, w, h, err := random.Parse()
		if err != nil {
			return err
		}
		s.Rules, s.Entries = rules, SameGameBoards(random.N, s.Options.Seed, w, h, random.Colors, rules, 0)
	}
	if s.List, err = ParseList(boards, len(s.Entries)); err != nil {
		return Usagef("bad -boards: %v; want numbers from 1 to %d, like 1,2,11 or 1-5", err, len(s.Entries))
	}
	return SameGamePlays(s.Rules, s.Algos...)
}

// Outputs sets the files a command line names: plot, the comparison drawn
// as a PNG (Plot; "": none), and out, the set file of the solutions
// (WriteSet; "": none), which needs a single algorithm and no plot (a
// UsageError). It returns what the progress counts: boards, or with
// several algorithms or a plot, solves.
func (s *SameGame) Outputs(plot, out string) (string, error) {
	if (len(s.Algos) > 1 || plot != "") && out != "" {
		return "", Usagef("-o needs a single -algo")
	}
	if plot == "" {
		return map[bool]string{true: "solves", false: "boards"}[len(s.Algos) > 1], nil
	}
	s.Plot = func(png []byte) error {
		return WriteFileAtomic(plot, func(w io.Writer) error { _, err := w.Write(png); return err })
	}
	return "solves", nil
}

// WriteSet writes the boards run, with the solutions of recs (of the first
// solver), to the set file path (SameGameSet).
func (s *SameGame) WriteSet(path string, recs []SameGameRecord) error {
	text := SameGameSet(s.Entries, s.List, recs, s.Rules, s.Algos[0], s.Timeout)
	return WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, text); return err })
}

// SameGamePlays checks that every solver of ids plays rules (its entry's
// Plays); a UsageError names those that do.
func SameGamePlays(rules samegame.Rules, ids ...string) error {
	players := catalog.SameGame.Playing(rules.String()).IDs()
	for _, id := range ids {
		if !slices.Contains(players, id) {
			return Usagef("-algo %s does not play %s rules (those that do: %s)", id, rules, strings.Join(players, ", "))
		}
	}
	return nil
}

// maxClicksBytes bounds a click list read from stdin.
const maxClicksBytes = 1 << 20

// ReadSameGameClicks returns the clicks a command line gives: the
// argument arg itself, or for "-" stdin (at most 1 MiB: more is a
// UsageError).
func ReadSameGameClicks(stdin io.Reader, arg string) (string, error) {
	if arg != "-" {
		return arg, nil
	}
	data, err := io.ReadAll(io.LimitReader(stdin, maxClicksBytes+1))
	if err != nil {
		return "", err
	}
	if len(data) > maxClicksBytes {
		return "", Usagef("more than %d bytes of clicks on stdin", maxClicksBytes)
	}
	return string(data), nil
}

// SameGameDefault resolves a command line's -algo for a board of rules:
// algo itself (in lower case), or for "" the default, the proof on dust
// boards (exact, whose best line is the answer when its budget ends the
// proof first: best is set) and NRPA on standard ones (the web page's
// default too). An unknown solver, or one that does not play rules
// (SameGamePlays), is a UsageError.
func SameGameDefault(algo string, rules samegame.Rules) (id string, best bool, err error) {
	id = strings.ToLower(algo)
	if id == "" {
		id, best = "nrpa", rules == samegame.Dust
		if best {
			id = "exact"
		}
	}
	if _, err := catalog.SameGame.Lookup(id); err != nil {
		return id, best, Usagef("-algo: %v", err)
	}
	return id, best, SameGamePlays(rules, id)
}

// SolveSameGame solves the board e, the n-th of file, with spec (the
// anytime searches using the whole budget: Restart) and the hooks h, and
// returns the record; with best (SameGameDefault) the best line an exact
// search found before its budget ended is the answer, not an error.
func SolveSameGame(ctx context.Context, e samegame.Entry, file string, n int, spec catalog.Spec[catalog.SameGameOptions], h catalog.SameGameHooks, best bool) catalog.SameGameRecord {
	spec.Options.Restart = spec.Budget.Timeout > 0
	job := catalog.SameGameJob{Spec: spec, Rules: e.Board.Rules().String(), Board: samegame.Format(e.Board, e.Notation), Name: e.Name, Number: n, Known: e.Optimal}
	rec := job.Run(ctx, h)
	rec.File = file
	if best && rec.Stopped == "time" && rec.Cleared {
		rec.Error = "" // the default's answer: the best line, not proven
	}
	return rec
}
