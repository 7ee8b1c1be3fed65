package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"tessera/internal/datadir"
	"tessera/samegame"
)

// ReadSameGameSet reads the boards of a set file (a file, a set of the
// shared data's samegame/ folder, or "-" for stdin), at most
// samegame.MaxSetBytes of it. rulesName is the -rules flag: "" chooses
// dust for boards written in letters and standard for digits. A file too
// large or malformed is a UsageError (bad input named by the user).
func ReadSameGameSet(stdin io.Reader, name, rulesName string) ([]samegame.Entry, samegame.Rules, error) {
	r := stdin
	if name != "-" {
		var err error
		if name, err = datadir.Resolve(name, "samegame"); err != nil {
			return nil, 0, err
		}
		if err := RegularFile(name); err != nil {
			return nil, 0, Usagef("%v", err)
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, err
		}
		defer f.Close()
		r = f
	}
	data, err := samegame.ReadSet(r)
	if errors.Is(err, samegame.ErrTooLarge) {
		return nil, 0, Usagef("%s: %v", name, err)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	var rules samegame.Rules
	switch {
	case rulesName != "":
		if rules, err = samegame.ParseRules(rulesName); err != nil {
			return nil, 0, Usagef("%v", err)
		}
	case samegame.DetectNotation(string(data)) == samegame.Letters:
		rules = samegame.Dust
	}
	entries, err := samegame.ParseSet(bytes.NewReader(data), rules)
	if err != nil {
		return nil, 0, Usagef("%s: %v", name, err)
	}
	return entries, rules, nil
}

// ReadSameGameBoard reads the board named by FILE[:N] (the N-th from 1, the
// first without :N) as ReadSameGameSet does, and returns it with its rules,
// the file and N.
func ReadSameGameBoard(stdin io.Reader, arg, rulesName string) (samegame.Entry, samegame.Rules, string, int, error) {
	file, n := arg, 1
	if i := strings.LastIndexByte(arg, ':'); i > 0 {
		if k, err := strconv.Atoi(arg[i+1:]); err == nil {
			if k < 1 {
				return samegame.Entry{}, 0, "", 0, Usagef("board number %d in %q must be at least 1", k, arg)
			}
			file, n = arg[:i], k
		}
	}
	entries, rules, err := ReadSameGameSet(stdin, file, rulesName)
	if err == nil && n > len(entries) {
		err = Usagef("%s has %d boards, not %d", file, len(entries), n)
	}
	if err != nil {
		return samegame.Entry{}, 0, "", 0, err
	}
	return entries[n-1], rules, file, n, nil
}

// SameGameGenerate returns n boards drawn as SameGameBoards does (size w x h,
// colors colours, from seed) in the set format with a header naming the
// command, or as JSON lines.
func SameGameGenerate(n int, seed uint64, w, h, colors int, rules samegame.Rules, asJSON bool) string {
	var sb strings.Builder
	if !asJSON {
		fmt.Fprintf(&sb, "# tessera samegame generate -rules %s -size %dx%d -colors %d -n %d -seed %d\n", rules, w, h, colors, n, seed)
	}
	for i, e := range SameGameBoards(n, seed, w, h, colors, rules, 0) {
		if asJSON {
			WriteJSON(&sb, map[string]any{"board": i + 1, "rules": rules.String(), "size": fmt.Sprintf("%dx%d", w, h),
				"colors": colors, "seed": seed, "rows": samegame.Line(e.Board, e.Notation)})
			continue
		}
		fmt.Fprintf(&sb, "\nposition %d\n%s", i+1, samegame.Format(e.Board, e.Notation))
	}
	return sb.String()
}
