package main

import (
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// workerFiles are this package's files that make the worker verb: the
// verb, and the files whose imports register its job kinds (jobs.go: the
// catalogue's and the bench items'; dist.go: the distributed searches').
var workerFiles = []string{"worker.go", "jobs.go", "dist.go"}

// TestWorkerImportsNoWeb: `tessera worker` does not need the web app. It
// parses the imports of workerFiles and follows the module's packages
// they import (their non-test files for this platform, go/build's
// choice) to the end, and fails if tessera/internal/web is among them.
// What it does not check: the rest of package main (serve imports the
// web, and the binary is one), nor what the worker registers at run time.
func TestWorkerImportsNoWeb(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const module = "tessera"
	var todo []string
	for _, f := range workerFiles {
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			todo = append(todo, p)
		}
	}
	via := map[string]string{} // a package of the module -> the one that imports it
	for _, p := range todo {
		via[p] = "cmd/tessera"
	}
	for len(todo) > 0 {
		p := todo[0]
		todo = todo[1:]
		if p != module && !strings.HasPrefix(p, module+"/") {
			continue
		}
		if p == module+"/internal/web" || strings.HasPrefix(p, module+"/internal/web/") {
			chain := []string{p}
			for q := via[p]; q != "cmd/tessera"; q = via[q] {
				chain = append(chain, q)
			}
			chain = append(chain, "cmd/tessera ("+strings.Join(workerFiles, ", ")+")")
			slices.Reverse(chain)
			t.Fatalf("the worker imports %s: %s", p, strings.Join(chain, " -> "))
		}
		pkg, err := build.Default.ImportDir(filepath.Join(root, strings.TrimPrefix(strings.TrimPrefix(p, module), "/")), 0)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, q := range pkg.Imports {
			if _, seen := via[q]; !seen {
				via[q] = p
				todo = append(todo, q)
			}
		}
	}
	n := 0
	for p := range via {
		if strings.HasPrefix(p, module+"/") {
			n++
		}
	}
	if n < 10 {
		t.Fatalf("only %d packages of the module followed: %v", n, via)
	}
	t.Logf("%d packages of the module followed; none is internal/web", n)
}
