package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestCommittedPagesUpToDate: running the generator on the committed pages
// changes nothing (run "go run ./docs/results/gen" after adding output).
func TestCommittedPagesUpToDate(t *testing.T) {
	changed, err := generate("..", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) > 0 {
		t.Fatalf("not up to date (run go run ./docs/results/gen): %v", changed)
	}
}

const goodMeta = `{"meta": {"command": "tessera edgematch bench -json", "commit": "abc1234", "date": "2026-11-24", "machine": "m", "load": "1"}}`

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const page = "# Edge matching\n\nhand-carried text | 1 | 2\n\n<!-- generated from edgematch/a.jsonl -->\nstale\n<!-- end -->\n\nmore text\n"

// TestGenerateIdempotent: the first run rewrites the block and keeps the
// rest of the page, the second changes nothing.
func TestGenerateIdempotent(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"edgematch.md": page,
		"edgematch/a.jsonl": goodMeta + "\n" +
			`{"puzzle":"clue1","score":60,"max":60,"solved":true,"seconds":0.000785781,"nodes":3054}` + "\n" +
			`{"algo":"dfs","nodes":12535671,"puzzles":1,"seconds":1.2,"solved":1,"summary":true}` + "\n",
	})
	changed, err := generate(dir, true)
	if err != nil || len(changed) != 1 {
		t.Fatalf("first run: changed %v, err %v", changed, err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "edgematch.md"))
	for _, want := range []string{"hand-carried text | 1 | 2", "more text\n", "`tessera edgematch bench -json`",
		"| nodes | 12,535,671 |", "| clue1 | yes | 60 | 60 | 3,054 |", "[edgematch/a.jsonl](edgematch/a.jsonl)"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("page lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), "stale") {
		t.Errorf("old block kept:\n%s", got)
	}
	changed, err = generate(dir, true)
	if err != nil || len(changed) != 0 {
		t.Fatalf("second run: changed %v, err %v", changed, err)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "edgematch.md"))
	if string(again) != string(got) {
		t.Fatal("second run changed the page")
	}
}

// TestGenerateErrors: malformed input fails with the file and line named,
// and nothing is written.
func TestGenerateErrors(t *testing.T) {
	summary := `{"puzzles":1,"summary":true}`
	item := `{"puzzle":"p","solved":true}`
	for _, tc := range []struct {
		name, md, jsonl, want string
	}{
		{"bad json", page, goodMeta + "\n" + `{"puzzle":"p",` + "\n" + summary + "\n", "a.jsonl:2:"},
		{"not an object", page, goodMeta + "\n[1,2]\n" + summary + "\n", "a.jsonl:2: not a JSON object"},
		{"no meta", page, item + "\n" + summary + "\n", "a.jsonl:1: the first line must be"},
		{"meta without load", page, `{"meta": {"command": "c", "commit": "c", "date": "d", "machine": "m"}}` + "\n" + summary + "\n", `a.jsonl:1: meta has no "load"`},
		{"no summary", page, goodMeta + "\n" + item + "\n", "no summary line"},
		{"summary not last", page, goodMeta + "\n" + summary + "\n" + item + "\n", "a.jsonl:2: the summary must be the last line"},
		{"empty line", page, goodMeta + "\n\n" + summary + "\n", "a.jsonl:2: empty line"},
		{"trailing text", page, goodMeta + "\n" + item + " x\n" + summary + "\n", "a.jsonl:2:"},
		{"unclosed block", "<!-- generated from edgematch/a.jsonl -->\ntext\n", goodMeta + "\n" + summary + "\n", "edgematch.md:1: generated block is not closed"},
		{"stray end", "text\n<!-- end -->\n", goodMeta + "\n" + summary + "\n", "edgematch.md:2:"},
		{"file not shown", "no markers\n", goodMeta + "\n" + summary + "\n", "no page shows it"},
		{"missing file", strings.ReplaceAll(page, "a.jsonl", "b.jsonl"), goodMeta + "\n" + summary + "\n", "b.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"edgematch.md": tc.md, "edgematch/a.jsonl": tc.jsonl})
			_, err := generate(dir, true)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "edgematch.md"))
			if string(got) != tc.md {
				t.Fatal("the page was written despite the error")
			}
		})
	}
}

func TestCell(t *testing.T) {
	pct := set("neighbor")
	for _, tc := range []struct {
		k    string
		v    any
		want string
	}{
		{"neighbor", num("0.9573600973236008"), "95.74%"},
		{"nodes", num("12535671"), "12,535,671"},
		{"mean_expanded", num("74030.17"), "74,030.17"},
		{"mean_length", num("21.84"), "21.84"},
		{"seconds", num("17.2296549778"), "17.230"},
		{"seconds", num("0.000785781"), "0.000786"},
		{"board", num("10000"), "10000"},
		{"solved", true, "yes"},
		{"frame", []any{num("18"), num("24")}, "18 x 24"},
		{"name", "a|b", `a\|b`},
	} {
		if got := cell(tc.k, tc.v, pct); got != tc.want {
			t.Errorf("cell(%s, %v) = %q, want %q", tc.k, tc.v, got, tc.want)
		}
	}
}

func num(s string) json.Number { return json.Number(s) }

// TestLinks: every relative link of the README and of every page under
// docs/ names a file or folder that exists, and a link to a heading
// (page.md#anchor or #anchor) names a heading of that page, spelled as
// GitHub spells it.
func TestLinks(t *testing.T) {
	root := "../../.."
	pages := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			pages = append(pages, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	n := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(stripCode(string(text)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			n++
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: broken link %s", page, target)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !anchors(t, path)[anchor] {
				t.Errorf("%s: link %s: no such heading", page, target)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d relative links found in %d pages", n, len(pages))
	}
}

var fence = regexp.MustCompile("(?ms)^```.*?^```")

// stripCode drops fenced code blocks, whose brackets are not links.
func stripCode(s string) string { return fence.ReplaceAllString(s, "") }

var anchorCache = map[string]map[string]bool{}

// anchors returns the heading anchors of a markdown page as GitHub makes
// them: lower case, punctuation but hyphens and underscores dropped, spaces
// as hyphens, repeats numbered -1, -2, ...
func anchors(t *testing.T, path string) map[string]bool {
	if a, ok := anchorCache[path]; ok {
		return a
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := map[string]bool{}
	seen := map[string]int{}
	for _, line := range strings.Split(stripCode(string(text)), "\n") {
		h := strings.TrimLeft(line, "#")
		if h == line || !strings.HasPrefix(h, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if k := seen[slug]; k > 0 {
			a[fmt.Sprintf("%s-%d", slug, k)] = true
		} else {
			a[slug] = true
		}
		seen[slug]++
	}
	anchorCache[path] = a
	return a
}

// TestSummaries: a "summaries of" block puts the summary lines of several
// benches one under the other, with every file's provenance.
func TestSummaries(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"tangram.md":      "<!-- generated summaries of solved,instances,seconds from sdp_go=tangram/a.jsonl exact=tangram/b.jsonl -->\n<!-- end -->\n",
		"tangram/a.jsonl": goodMeta + "\n" + `{"puzzle":"p","solved":true}` + "\n" + `{"summary":true,"instances":7,"solved":7,"seconds":20.723372826}` + "\n",
		"tangram/b.jsonl": goodMeta + "\n" + `{"summary":true,"instances":50,"solved":48,"seconds":0.0051}` + "\n",
	})
	if _, err := generate(dir, true); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "tangram.md"))
	for _, want := range []string{"| bench | solved | instances | seconds |", "| sdp go | 7 | 7 | 20.723 |", "| exact | 48 | 50 | 0.0051 |",
		"- exact: `tessera edgematch bench -json`; commit abc1234, 2026-11-24; m; load: 1; raw output: [tangram/b.jsonl](tangram/b.jsonl)"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("page lacks %q:\n%s", want, got)
		}
	}
}

// TestPivot: a "table of" block puts one field of several benches side by
// side, a column gathering several files, and lists every file's provenance.
func TestPivot(t *testing.T) {
	summary := `{"puzzles":1,"summary":true}`
	dir := writeFiles(t, map[string]string{
		"edgematch.md":       "# E\n\n<!-- generated table of score by puzzle,max from a=edgematch/a.jsonl b=edgematch/b1.jsonl,edgematch/b2.jsonl -->\n<!-- end -->\n",
		"edgematch/a.jsonl":  goodMeta + "\n" + `{"puzzle":"p1","score":10,"max":12}` + "\n" + `{"puzzle":"p2","score":1000,"max":1200}` + "\n" + summary + "\n",
		"edgematch/b1.jsonl": goodMeta + "\n" + `{"puzzle":"p2","score":1100,"max":1200}` + "\n" + summary + "\n",
		"edgematch/b2.jsonl": goodMeta + "\n" + `{"puzzle":"p3","score":7,"max":9}` + "\n" + summary + "\n",
	})
	if _, err := generate(dir, true); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "edgematch.md"))
	for _, want := range []string{"| puzzle | max | a | b |", "| p1 | 12 | 10 |  |", "| p2 | 1,200 | 1,000 | 1,100 |", "| p3 | 9 |  | 7 |",
		"- b: `tessera edgematch bench -json`; commit abc1234, 2026-11-24; m; load: 1; raw output: [edgematch/b2.jsonl](edgematch/b2.jsonl)"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("page lacks %q:\n%s", want, got)
		}
	}
	if changed, err := generate(dir, true); err != nil || len(changed) != 0 {
		t.Fatalf("second run: changed %v, err %v", changed, err)
	}
	// A file listed by an earlier block of the page is named only.
	dir = writeFiles(t, map[string]string{
		"edgematch.md":      "<!-- generated table of score by puzzle from a=edgematch/a.jsonl -->\n<!-- end -->\n<!-- generated table of max by puzzle from a=edgematch/a.jsonl -->\n<!-- end -->\n",
		"edgematch/a.jsonl": goodMeta + "\n" + `{"puzzle":"p1","score":10,"max":12}` + "\n" + summary + "\n",
	})
	if _, err := generate(dir, true); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(filepath.Join(dir, "edgematch.md"))
	if strings.Count(string(got), "`tessera edgematch bench -json`") != 1 || !strings.Contains(string(got), "- a: [edgematch/a.jsonl](edgematch/a.jsonl), listed above") {
		t.Errorf("provenance not given once:\n%s", got)
	}
	dir = writeFiles(t, map[string]string{
		"edgematch.md":      "<!-- generated table of score by puzzle from a=edgematch/a.jsonl a2=edgematch/a.jsonl,edgematch/a.jsonl -->\n<!-- end -->\n",
		"edgematch/a.jsonl": goodMeta + "\n" + `{"puzzle":"p1","score":10}` + "\n" + summary + "\n",
	})
	if _, err := generate(dir, true); err == nil || !strings.Contains(err.Error(), "edgematch.md:1:") || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("err = %v, want a row twice in one column", err)
	}
}
