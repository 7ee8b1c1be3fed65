package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"tessera/internal/datadir"
)

// The shell lines of the README and the tour are the first thing a new
// user runs: TestDocLines runs them. Every line's command and flags are
// checked as the command line reads them (the verb exists, every flag is
// known and its value parses); with TESSERA_TEST_FULL=1 (as in .ci/run,
// where the shared data is) each line is also run, in order, in a folder
// of its own, and must succeed. A line that takes longer than a minute
// says so in its comment, "(minutes)" or "(hours)": it is run for a few
// seconds and must be working when it is stopped; one whose comment says
// "(exit 1)" may fail that way. Lines that need a
// cluster (URL, HOST), run until stopped (serve, worker, jobs server) or
// need a terminal (play) are only checked.

// docLine is one command of a shell block.
type docLine struct {
	where   string // file:line
	args    []string
	env     map[string]string
	comment string
}

var longMarker = regexp.MustCompile(`\((\d+ )?(minutes|hours|an hour|a minute)\b[^)]*\)`)

// readDocLines returns the commands of the ```sh blocks of path: lines
// joined at a trailing backslash, VAR=value lines applied to the lines
// after them ($VAR), NAME=value prefixes kept as the command's
// environment; go commands other than go run ./cmd/tessera are left out.
func readDocLines(t *testing.T, path string) []docLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		lines  []docLine
		vars   = map[string]string{}
		inSh   bool
		joined string
		start  int
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.HasPrefix(text, "```") {
			inSh = strings.TrimSpace(strings.TrimPrefix(text, "```")) == "sh"
			continue
		}
		if !inSh {
			continue
		}
		if joined == "" {
			start = n
		}
		if s, ok := strings.CutSuffix(strings.TrimRight(text, " "), `\`); ok && !strings.Contains(s, " #") {
			joined += s + " "
			continue
		}
		joined += text
		line, comment := splitComment(joined)
		joined = ""
		words := shellWords(line)
		env := map[string]string{}
		for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
			k, v, _ := strings.Cut(words[0], "=")
			env[k] = v
			words = words[1:]
		}
		if len(words) == 0 {
			for k, v := range env {
				vars[k] = v
			}
			continue
		}
		for i, w := range words {
			words[i] = os.Expand(w, func(k string) string { return vars[k] })
		}
		switch {
		case words[0] == "tessera":
			words = words[1:]
		case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/tessera":
			words = words[3:]
		default:
			continue // go test, go install: not tessera's commands
		}
		lines = append(lines, docLine{where: filepath.Base(path) + ":" + strconv.Itoa(start), args: words, env: env, comment: comment})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// splitComment cuts a shell line at its comment (a # after a space,
// outside quotes).
func splitComment(s string) (string, string) {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return s[:i], strings.TrimSpace(s[i+1:])
		}
	}
	return s, ""
}

// shellWords splits a line into words as a shell does for these lines:
// spaces separate, quotes group.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// parseOnly resolves the command of args and parses its flags as run
// does, without running it.
func parseOnly(args []string) error {
	cmds := families
	var cmd *Command
	for len(args) > 0 {
		cmd = find(cmds, args[0])
		if cmd == nil {
			return errors.New("unknown command " + args[0])
		}
		args = args[1:]
		if cmd.Flags != nil {
			break
		}
		cmds = cmd.Commands
	}
	if cmd == nil || cmd.Flags == nil {
		return errors.New("no verb")
	}
	fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cmd.Flags(fs)
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	return finiteFloats(fs)
}

// checkOnly says why a line is only checked, not run ("": it is run).
func checkOnly(l docLine) string {
	joined := " " + strings.Join(l.args, " ") + " "
	switch {
	case strings.Contains(joined, " URL ") || strings.Contains(joined, "HOST") || strings.Contains(joined, "nats://h:"):
		return "needs a NATS cluster"
	case l.args[0] == "serve" || l.args[0] == "worker" || strings.HasPrefix(joined, " jobs server "):
		return "runs until stopped"
	case len(l.args) > 1 && l.args[1] == "play":
		return "needs a terminal"
	case strings.HasPrefix(joined, " jigsaw neural train ") || strings.HasPrefix(joined, " samegame train "):
		return "trains a network (hours)"
	}
	return ""
}

func TestDocLines(t *testing.T) {
	var all []docLine
	for _, doc := range []string{"../../README.md", "../../docs/tour.md"} {
		all = append(all, readDocLines(t, doc)...)
	}
	if len(all) < 40 {
		t.Fatalf("read only %d command lines from the README and the tour", len(all))
	}
	for _, l := range all {
		if err := parseOnly(l.args); err != nil {
			t.Errorf("%s: tessera %s: %v", l.where, strings.Join(l.args, " "), err)
		}
	}
	if os.Getenv("TESSERA_TEST_FULL") == "" {
		t.Skip("the lines' commands were checked; TESSERA_TEST_FULL=1 runs them (as .ci/run does)")
	}
	data, err := datadir.Dir()
	if err != nil {
		t.Skipf("running the lines needs the shared data: %v", err)
	}
	data, _ = filepath.Abs(data)
	repo, _ := filepath.Abs("../..")
	work := t.TempDir()
	// The files the lines name as examples: photographs, two pictures for
	// a bag, a board file, the Kodak set.
	for dst, src := range map[string]string{
		"photo.jpg":  filepath.Join(repo, "jigsaw/neural/testdata/kodak03.png"),
		"a.png":      filepath.Join(repo, "jigsaw/neural/testdata/kodak03.png"),
		"b.jpg":      filepath.Join(repo, "jigsaw/neural/testdata/kodak23.png"),
		"BOARDS.txt": filepath.Join(data, "samegame/dust_blog_examples.txt"),
	} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, dst), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(data, "images/kodak24"), filepath.Join(work, "kodak24")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	t.Setenv(datadir.EnvVar, data)
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // pattern databases built here stay here
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, l := range all {
		if why := checkOnly(l); why != "" {
			t.Logf("%s: checked, not run: %s", l.where, why)
			continue
		}
		args := expandLine(t, l.args, data)
		long := longMarker.MatchString(l.comment)
		limit := 90 * time.Second
		if d, err := time.ParseDuration(os.Getenv("TESSERA_DOC_LIMIT")); err == nil {
			limit = d // a shorter limit to find the slow lines
		}
		if long {
			limit = 4 * time.Second
		}
		for k, v := range l.env {
			t.Setenv(k, v)
		}
		ctx, cancel := context.WithTimeout(t.Context(), limit)
		start := time.Now()
		errOut := &tailWriter{max: 2000}
		code := run(ctx, args, &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: errOut})
		stderr := "\n" + string(errOut.b)
		cancel()
		took := time.Since(start)
		switch {
		case code == 0:
			t.Logf("%s: ok in %.1f s", l.where, took.Seconds())
		case code == exitFailed && strings.Contains(l.comment, "(exit 1)"):
			t.Logf("%s: exit 1 in %.1f s, as its comment says", l.where, took.Seconds())
		case long && took >= limit:
			t.Logf("%s: working when stopped after %v, as its comment says it takes long", l.where, limit)
		case !long && took >= limit:
			t.Errorf("%s: tessera %s: still running after %v, and its comment does not say it takes long ((minutes) or (hours))", l.where, strings.Join(l.args, " "), limit)
		default:
			t.Errorf("%s: tessera %s: exit %d after %.1f s%s", l.where, strings.Join(l.args, " "), code, took.Seconds(), stderr)
		}
	}
}

// expandLine replaces the lines' relative paths into the shared data by
// the data folder, and expands globs as a shell does.
func expandLine(t *testing.T, args []string, data string) []string {
	var out []string
	for _, a := range args {
		if rest, ok := strings.CutPrefix(a, "../shared/data"); ok {
			a = data + rest
		}
		a = strings.ReplaceAll(a, ",../shared/data", ","+data)
		if strings.ContainsAny(a, "*?[") && !strings.HasPrefix(a, "-") {
			if m, err := filepath.Glob(a); err == nil && len(m) > 0 {
				out = append(out, m...)
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	b   []byte
	max int
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	if len(w.b) > w.max {
		w.b = w.b[len(w.b)-w.max:]
	}
	return len(p), nil
}
