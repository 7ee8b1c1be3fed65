package main

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// workerFiles returns this package's files that make the worker verb:
// worker.go, and the files that register its job kinds (a call of
// jobs.Register) or import a package for its registrations (a top-level
// `var _ = pkg.Name`), read from the package's non-test files.
func workerFiles(t *testing.T) []string {
	files := []string{"worker.go"}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range names {
		if f == "worker.go" || strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		registers := false
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Register" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "jobs" {
						registers = true
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == 1 && n.Names[0].Name == "_" && len(n.Values) == 1 {
					if _, ok := n.Values[0].(*ast.SelectorExpr); ok {
						registers = true
					}
				}
			}
			return !registers
		})
		if registers {
			files = append(files, f)
		}
	}
	return files
}

// TestWorkerImportsNoWeb: `tessera worker` does not need the web app. It
// parses the imports of workerFiles (worker.go and jobs.go today) and follows the module's packages
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
	files := workerFiles(t)
	if !slices.Contains(files, "jobs.go") {
		t.Fatalf("no file registering job kinds found: %v", files)
	}
	var todo []string
	for _, f := range files {
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
			chain = append(chain, "cmd/tessera ("+strings.Join(files, ", ")+")")
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
	t.Logf("%s: %d packages of the module followed; none is internal/web", strings.Join(files, ", "), n)
}
