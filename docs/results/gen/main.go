// Command gen writes the generated tables of the results pages
// (docs/results/*.md) from the bench output kept beside them
// (docs/results/<family>/*.jsonl).
//
// Run from the repository root:
//
//	go run ./docs/results/gen          # rewrite the generated tables
//	go run ./docs/results/gen -check   # exit 1 if a page is not up to date
//
// A page asks for a table with a pair of markers; gen replaces whatever lies
// between them and leaves the rest of the page (the hand-carried historical
// tables) alone:
//
//	<!-- generated from npuzzle/3x3.jsonl -->
//	<!-- end -->
//
// A .jsonl file is the output of one "tessera ... bench -json" command (one
// JSON object per item, then the summary object with "summary": true),
// preceded by one line that records where it comes from:
//
//	{"meta": {"command": "tessera npuzzle bench -size 3x3 -n 100 -seed 1 -json",
//	  "commit": "334ef96", "date": "2026-11-24", "machine": "...", "load": "...",
//	  "note": "optional"}}
//
// (on one line). Every .jsonl file must be named by a marker, every
// marker must name an existing, well-formed file; any violation is an error
// that names the file and line.
//
// A second marker draws one field of several benches side by side, a row per
// item and a column per label (a column may gather several files, for
// example one bench per instance), followed by each file's provenance:
//
//	<!-- generated table of score by puzzle,max from partial=edgematch/a.jsonl tiles=edgematch/b.jsonl,edgematch/c.jsonl -->
//	<!-- end -->
//
// The first "by" field names the rows; the others are shown beside it, taken
// from the first file that has the row. A third marker puts the summary lines
// of several benches one under the other, the named fields of each:
//
//	<!-- generated summaries of solved,instances,seconds from sdp_go=tangram/a.jsonl exact=tangram/b.jsonl -->
//	<!-- end -->
//
// In both, an underscore in a label is shown as a space.
package main

//go:generate go run . -dir ..

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

func main() {
	dir := flag.String("dir", "docs/results", "the results folder: pages *.md, bench output <family>/*.jsonl")
	check := flag.Bool("check", false, "write nothing; exit 1 if a page is not up to date")
	flag.Parse()
	changed, err := generate(*dir, !*check)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for _, f := range changed {
		if *check {
			fmt.Fprintf(os.Stderr, "gen: %s is not up to date (go run ./docs/results/gen)\n", f)
		} else {
			fmt.Fprintf(os.Stderr, "gen: wrote %s\n", f)
		}
	}
	if *check && len(changed) > 0 {
		os.Exit(1)
	}
}

var (
	beginRE = regexp.MustCompile(`^<!-- generated from (\S+\.jsonl) -->$`)
	pivotRE = regexp.MustCompile(`^<!-- generated table of (\S+) by (\S+) from (.+) -->$`)
	sumRE   = regexp.MustCompile(`^<!-- generated summaries of (\S+) from (.+) -->$`)
	endLine = "<!-- end -->"
)

// isBegin reports whether line opens a generated block.
func isBegin(line string) bool {
	return beginRE.MatchString(line) || pivotRE.MatchString(line) || sumRE.MatchString(line)
}

// generate regenerates every page of dir in memory and, when write is true,
// writes the pages that changed. It returns the paths of those pages.
func generate(dir string, write bool) ([]string, error) {
	pages, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(pages)
	used := map[string]bool{}
	var changed []string
	out := map[string][]byte{} // written only when every page and file is good
	for _, page := range pages {
		old, err := os.ReadFile(page)
		if err != nil {
			return nil, err
		}
		neu, err := render(dir, page, old, used)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(old, neu) {
			changed = append(changed, page)
			out[page] = neu
		}
	}
	all, err := filepath.Glob(filepath.Join(dir, "*", "*.jsonl"))
	if err != nil {
		return nil, err
	}
	for _, f := range all {
		rel, _ := filepath.Rel(dir, f)
		if !used[filepath.ToSlash(rel)] {
			return nil, fmt.Errorf("%s: no page shows it (add <!-- generated from %s --> and <!-- end --> to a page)", f, filepath.ToSlash(rel))
		}
	}
	if write {
		for _, page := range changed {
			if err := os.WriteFile(page, out[page], 0o644); err != nil {
				return nil, err
			}
		}
	}
	return changed, nil
}

// render returns page with every generated block rebuilt from its file.
func render(dir, page string, src []byte, used map[string]bool) ([]byte, error) {
	listed := map[string]bool{} // files whose provenance this page already lists
	lines := strings.SplitAfter(string(src), "\n")
	var out strings.Builder
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		bare := strings.TrimRight(line, "\r\n")
		m := beginRE.FindStringSubmatch(bare)
		pm := pivotRE.FindStringSubmatch(bare)
		sm := sumRE.FindStringSubmatch(bare)
		if m == nil && pm == nil && sm == nil {
			if strings.TrimRight(line, "\r\n") == endLine {
				return nil, fmt.Errorf("%s:%d: %s without a <!-- generated from ... --> line before it", page, i+1, endLine)
			}
			out.WriteString(line)
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimRight(lines[j], "\r\n") != endLine {
			if isBegin(strings.TrimRight(lines[j], "\r\n")) {
				return nil, fmt.Errorf("%s:%d: generated block opened at line %d is not closed by %s", page, j+1, i+1, endLine)
			}
			j++
		}
		if j == len(lines) {
			return nil, fmt.Errorf("%s:%d: generated block is not closed by %s", page, i+1, endLine)
		}
		var tab string
		if sm != nil {
			t, err := summaries(dir, sm[1], sm[2], used, listed)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", page, i+1, err)
			}
			tab = t
		} else if pm != nil {
			t, err := pivot(dir, pm[1], pm[2], pm[3], used, listed)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", page, i+1, err)
			}
			tab = t
		} else {
			rel := m[1]
			if err := under(rel); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", page, i+1, err)
			}
			t, err := table(filepath.Join(dir, filepath.FromSlash(rel)), rel)
			if err != nil {
				return nil, err
			}
			tab = t
			used[rel] = true
		}
		out.WriteString(line)
		out.WriteString(tab)
		out.WriteString(lines[j])
		i = j
	}
	return []byte(out.String()), nil
}

// under checks that rel names a file below the results folder.
func under(rel string) error {
	if strings.Contains(rel, "..") || filepath.IsAbs(rel) {
		return fmt.Errorf("%s: the file must lie under the results folder", rel)
	}
	return nil
}

// parseUnder parses the file rel of the results folder dir, and marks it
// used.
func parseUnder(dir, rel string, used map[string]bool) (*bench, error) {
	if err := under(rel); err != nil {
		return nil, err
	}
	b, err := parse(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	used[rel] = true
	return b, nil
}

// pivot renders a "table of FIELD by KEYS from LABEL=FILE[,FILE...] ..."
// block: a row per item (named by the first key), a column per label, then
// the provenance of every file.
func pivot(dir, field, by, cols string, used, listed map[string]bool) (string, error) {
	keys := strings.Split(by, ",")
	columns, err := labelled(cols)
	if err != nil {
		return "", err
	}
	var rows []string
	shown := map[string]map[string]any{} // row -> key fields
	cells := map[string]map[string]any{} // row -> label -> value
	var prov strings.Builder
	family := ""
	for _, c := range columns {
		for _, rel := range c.files {
			b, err := parseUnder(dir, rel, used)
			if err != nil {
				return "", err
			}
			family = familyOf(rel)
			m := b.meta
			provenance(&prov, c.label, rel, m, listed)
			for _, it := range b.items {
				kv, ok := it.vals[keys[0]]
				if !ok {
					return "", fmt.Errorf("%s: an item without %q", rel, keys[0])
				}
				row := cell(keys[0], kv, nil)
				if shown[row] == nil {
					rows = append(rows, row)
					shown[row] = it.vals
					cells[row] = map[string]any{}
				}
				if _, dup := cells[row][c.label]; dup {
					return "", fmt.Errorf("%s: %s %s twice in column %s", rel, keys[0], row, c.label)
				}
				v, ok := it.vals[field]
				if !ok {
					v = nil
				}
				cells[row][c.label] = v
			}
		}
	}
	pct := specs[family].pct
	var w strings.Builder
	w.WriteString("\n| " + strings.Join(keys, " | "))
	for _, c := range columns {
		w.WriteString(" | " + c.label)
	}
	w.WriteString(" |\n| ---")
	for _, k := range keys[1:] {
		align := " | ---:"
		for _, row := range rows {
			if _, isNum := shown[row][k].(json.Number); !isNum {
				align = " | ---"
			}
		}
		w.WriteString(align)
	}
	for range columns {
		w.WriteString(" | ---:")
	}
	w.WriteString(" |\n")
	for _, row := range rows {
		w.WriteString("| " + row)
		for _, k := range keys[1:] {
			s := ""
			if v, ok := shown[row][k]; ok {
				s = cell(k, v, pct)
			}
			w.WriteString(" | " + s)
		}
		for _, c := range columns {
			s := ""
			if v, ok := cells[row][c.label]; ok {
				s = cell(field, v, pct)
			}
			w.WriteString(" | " + s)
		}
		w.WriteString(" |\n")
	}
	fmt.Fprintf(&w, "\nThe %s of each bench; its files (command; commit, date; machine; load; note; raw output, given once a page):\n\n", field)
	w.WriteString(prov.String())
	w.WriteString("\n")
	return w.String(), nil
}

// A column of a side-by-side table: its label (underscores shown as
// spaces) and the bench files it gathers.
type column struct {
	label string
	files []string
}

// labelled parses "LABEL=FILE[,FILE...] ...".
func labelled(cols string) ([]column, error) {
	var columns []column
	for _, c := range strings.Fields(cols) {
		label, files, ok := strings.Cut(c, "=")
		if !ok || label == "" || files == "" {
			return nil, fmt.Errorf("%q: want LABEL=FILE[,FILE...]", c)
		}
		columns = append(columns, column{strings.ReplaceAll(label, "_", " "), strings.Split(files, ",")})
	}
	if len(columns) == 0 {
		return nil, errors.New("a table of no benches")
	}
	return columns, nil
}

// provenance writes one file's line under a side-by-side table; a file
// whose line the page already gave (listed) is named only.
func provenance(w *strings.Builder, label, rel string, m meta, listed map[string]bool) {
	if listed[rel] {
		fmt.Fprintf(w, "- %s: [%s](%s), listed above\n", label, rel, rel)
		return
	}
	listed[rel] = true
	fmt.Fprintf(w, "- %s: `%s`; commit %s, %s; %s; load: %s", label, m.Command, m.Commit, m.Date, m.Machine, m.Load)
	if m.Note != "" {
		fmt.Fprintf(w, "; %s", m.Note)
	}
	fmt.Fprintf(w, "; raw output: [%s](%s)\n", rel, rel)
}

// summaries renders a "summaries of F1,F2,... from LABEL=FILE ..." block: a
// row per bench with the named fields of its summary line, then the
// provenance of every file. A label names one file here.
func summaries(dir, fields, rows string, used, listed map[string]bool) (string, error) {
	keys := strings.Split(fields, ",")
	benches, err := labelled(rows)
	if err != nil {
		return "", err
	}
	var w, prov strings.Builder
	w.WriteString("\n| bench | " + strings.Join(keys, " | ") + " |\n| ---")
	for range keys {
		w.WriteString(" | ---:")
	}
	w.WriteString(" |\n")
	for _, c := range benches {
		if len(c.files) != 1 {
			return "", fmt.Errorf("%s: one file per row in a table of summaries", c.label)
		}
		rel := c.files[0]
		b, err := parseUnder(dir, rel, used)
		if err != nil {
			return "", err
		}
		pct := summaryPct[familyOf(rel)]
		w.WriteString("| " + c.label)
		for _, k := range keys {
			s := ""
			if v, ok := b.summary.vals[k]; ok {
				s = cell(k, v, pct)
			}
			w.WriteString(" | " + s)
		}
		w.WriteString(" |\n")
		provenance(&prov, c.label, rel, b.meta, listed)
	}
	w.WriteString("\nEach row is the summary line of one bench; its file (command; commit, date; machine; load; note; raw output, given once a page):\n\n")
	w.WriteString(prov.String())
	w.WriteString("\n")
	return w.String(), nil
}

func familyOf(rel string) string {
	if k := strings.IndexByte(rel, '/'); k > 0 {
		return rel[:k]
	}
	return ""
}

// A record is one JSON object with its keys in file order.
type record struct {
	keys []string
	vals map[string]any // json.Number, string, bool, nil, []any, record
}

func (r record) has(k string) bool { _, ok := r.vals[k]; return ok }

// decodeRecord reads one JSON object keeping the order of its keys.
func decodeRecord(data []byte) (record, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return record{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return record{}, errors.New("text after the JSON object")
	}
	r, ok := v.(record)
	if !ok {
		return record{}, errors.New("not a JSON object")
	}
	return r, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			r := record{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				if _, dup := r.vals[k]; dup {
					return nil, fmt.Errorf("key %q twice", k)
				}
				r.keys = append(r.keys, k)
				r.vals[k] = v
			}
			_, err := dec.Token() // '}'
			return r, err
		case '[':
			var a []any
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token() // ']'
			return a, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// meta is the first line of a .jsonl file.
type meta struct {
	Command, Commit, Date, Machine, Load, Note string
}

var metaFields = []string{"command", "commit", "date", "machine", "load"}

// bench is a parsed .jsonl file.
type bench struct {
	meta    meta
	items   []record
	summary record
}

// parse reads a .jsonl file; errors name the file and line.
func parse(path string) (*bench, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) < 2 || strings.TrimSpace(lines[0]) == "" {
		return nil, fmt.Errorf("%s: want a meta line, the bench's lines and its summary line", path)
	}
	b := &bench{}
	first, err := decodeRecord([]byte(lines[0]))
	if err != nil {
		return nil, fmt.Errorf("%s:1: %v", path, err)
	}
	mv, ok := first.vals["meta"].(record)
	if !ok || len(first.keys) != 1 {
		return nil, fmt.Errorf("%s:1: the first line must be {\"meta\": {%s}}", path, strings.Join(metaFields, ", "))
	}
	get := func(k string) (string, error) {
		v, ok := mv.vals[k]
		if !ok {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s:1: meta %q must be a string", path, k)
		}
		return s, nil
	}
	dst := []*string{&b.meta.Command, &b.meta.Commit, &b.meta.Date, &b.meta.Machine, &b.meta.Load}
	for i, k := range metaFields {
		s, err := get(k)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("%s:1: meta has no %q", path, k)
		}
		*dst[i] = s
	}
	if b.meta.Note, err = get("note"); err != nil {
		return nil, err
	}
	for i, line := range lines[1:] {
		n := i + 2
		if strings.TrimSpace(line) == "" {
			return nil, fmt.Errorf("%s:%d: empty line", path, n)
		}
		r, err := decodeRecord([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if r.vals["summary"] == true {
			if n != len(lines) {
				return nil, fmt.Errorf("%s:%d: the summary must be the last line", path, n)
			}
			b.summary = r
			continue
		}
		if r.has("meta") {
			return nil, fmt.Errorf("%s:%d: a second meta line", path, n)
		}
		b.items = append(b.items, r)
	}
	if b.summary.vals == nil {
		return nil, fmt.Errorf("%s:%d: no summary line (an object with \"summary\": true) at the end", path, len(lines))
	}
	return b, nil
}

// A family's presentation: which item fields make the per-item table and
// which fields are shares shown as percentages. Unknown families show every
// field of the first item.
type spec struct {
	items []string
	pct   map[string]bool
}

var specs = map[string]spec{
	"npuzzle":   {items: []string{"board", "instance", "method", "length", "published", "optimal", "expanded", "generated", "nodes", "seconds", "cpu_seconds"}},
	"jigsaw":    {items: []string{"bag", "image", "pieces", "direct", "neighbor", "perfect", "best_buddies", "outputs", "rectangles", "frame", "seconds", "cpu_seconds"}, pct: set("direct", "neighbor", "best_buddies")},
	"gaps":      {items: []string{"puzzle", "image", "patch", "neighbor", "perfect", "value", "seconds"}, pct: set("patch", "neighbor")},
	"edgematch": {items: []string{"puzzle", "solved", "score", "max", "nodes", "seconds", "best_seconds", "cpu_seconds"}},
	"tangram":   {items: []string{"puzzle", "solved", "iterations", "objective", "restarts", "sdp_steps", "nodes", "seconds", "error"}},
	"samegame":  {items: []string{"board", "name", "algo", "score", "clicks", "cleared", "optimal", "nodes", "playouts", "seconds"}},
}

// summaryPct lists the summary fields shown as percentages (a summary's
// "perfect" is a count in jigsaw and a share in gaps).
var summaryPct = map[string]map[string]bool{
	"jigsaw": set("direct", "neighbor"),
	"gaps":   set("patch", "neighbor", "perfect"),
}

func set(s ...string) map[string]bool {
	m := map[string]bool{}
	for _, k := range s {
		m[k] = true
	}
	return m
}

// maxItemRows bounds the per-item table; longer benches keep their items in
// the .jsonl file only.
const maxItemRows = 120

// table renders the generated block of one .jsonl file, named rel
// (family/name.jsonl) on its page.
func table(path, rel string) (string, error) {
	family := familyOf(rel)
	b, err := parse(path)
	if err != nil {
		return "", err
	}
	var w strings.Builder
	m := b.meta
	fmt.Fprintf(&w, "\n- command: `%s`\n", m.Command)
	fmt.Fprintf(&w, "- commit %s, %s; %s; load: %s\n", m.Commit, m.Date, m.Machine, m.Load)
	if m.Note != "" {
		fmt.Fprintf(&w, "- %s\n", m.Note)
	}
	fmt.Fprintf(&w, "- raw output: [%s](%s)\n\n", rel, rel)

	sp := specs[family]
	// Summary: nested lists of objects as tables of their own, the rest as
	// field | value.
	var nested []string
	w.WriteString("| summary | value |\n| --- | ---: |\n")
	for _, k := range b.summary.keys {
		if k == "summary" {
			continue
		}
		if _, ok := objects(b.summary.vals[k]); ok {
			nested = append(nested, k)
			continue
		}
		fmt.Fprintf(&w, "| %s | %s |\n", k, cell(k, b.summary.vals[k], summaryPct[family]))
	}
	for _, k := range nested {
		rows, _ := objects(b.summary.vals[k])
		fmt.Fprintf(&w, "\n%s:\n\n", k)
		writeTable(&w, rows, columns(rows, nil), sp.pct)
	}
	if n := len(b.items); n > 0 {
		if n > maxItemRows {
			fmt.Fprintf(&w, "\n%d item lines: see the .jsonl file.\n", n)
		} else {
			fmt.Fprintf(&w, "\n<details><summary>%d items</summary>\n\n", n)
			writeTable(&w, b.items, columns(b.items, sp.items), sp.pct)
			w.WriteString("\n</details>\n")
		}
	}
	w.WriteString("\n")
	return w.String(), nil
}

func objects(v any) ([]record, bool) {
	a, ok := v.([]any)
	if !ok || len(a) == 0 {
		return nil, false
	}
	rows := make([]record, len(a))
	for i, e := range a {
		r, ok := e.(record)
		if !ok {
			return nil, false
		}
		rows[i] = r
	}
	return rows, true
}

// columns picks the columns of a table: the wanted keys that some row has,
// in the wanted order, or without a wish every key in first-seen order.
func columns(rows []record, want []string) []string {
	seen := map[string]bool{}
	var all []string
	for _, r := range rows {
		for _, k := range r.keys {
			if !seen[k] {
				seen[k] = true
				all = append(all, k)
			}
		}
	}
	if want == nil {
		return all
	}
	var cols []string
	for _, k := range want {
		if seen[k] {
			cols = append(cols, k)
		}
	}
	if len(cols) == 0 {
		return all
	}
	return cols
}

func writeTable(w *strings.Builder, rows []record, cols []string, pct map[string]bool) {
	w.WriteString("| " + strings.Join(cols, " | ") + " |\n|")
	for _, k := range cols {
		if numeric(rows, k) {
			w.WriteString(" ---: |")
		} else {
			w.WriteString(" --- |")
		}
	}
	w.WriteString("\n")
	for _, r := range rows {
		w.WriteString("|")
		for _, k := range cols {
			v, ok := r.vals[k]
			s := ""
			if ok {
				s = cell(k, v, pct)
			}
			w.WriteString(" " + s + " |")
		}
		w.WriteString("\n")
	}
}

func numeric(rows []record, k string) bool {
	for _, r := range rows {
		if v, ok := r.vals[k]; ok {
			if _, isNum := v.(json.Number); !isNum {
				return false
			}
		}
	}
	return true
}

// cell formats one value: shares as percentages, seconds to the
// millisecond, large numbers with thousands separators.
func cell(k string, v any, pct map[string]bool) string {
	switch t := v.(type) {
	case nil:
		return ""
	case bool:
		if t {
			return "yes"
		}
		return "no"
	case string:
		return strings.ReplaceAll(t, "|", `\|`)
	case json.Number:
		f, err := t.Float64()
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return t.String()
		}
		switch {
		case pct[k]:
			return strconv.FormatFloat(100*f, 'f', 2, 64) + "%"
		case strings.HasSuffix(k, "seconds") && math.Abs(f) >= 0.1:
			return strconv.FormatFloat(f, 'f', 3, 64)
		case strings.HasSuffix(k, "seconds"):
			return strconv.FormatFloat(f, 'g', 3, 64)
		case ids[k]:
			return t.String()
		case !strings.ContainsAny(t.String(), ".eE"):
			return group(t.String())
		case math.Abs(f) >= 1:
			return group(strconv.FormatFloat(f, 'f', 2, 64))
		default:
			return strconv.FormatFloat(f, 'g', 4, 64)
		}
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = cell(k, e, nil)
		}
		return strings.Join(parts, " x ")
	case record:
		return "(object)"
	}
	return fmt.Sprint(v)
}

// ids are fields that number things; they get no thousands separators.
var ids = set("board", "instance", "puzzle", "bag", "seed", "crop", "grid", "piece", "pieces", "type")

// group puts thousands separators into a decimal number of 4 digits or
// more before its point: 74030.17 -> 74,030.17.
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	if len(intPart) < 4 {
		return sign + s
	}
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String() + frac
}
