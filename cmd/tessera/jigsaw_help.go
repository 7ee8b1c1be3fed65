package main

import (
	"embed"
	"fmt"
	"strings"

	"tessera/internal/catalog"
	"tessera/jigsaw"
)

// The long help of the jigsaw verbs: help/jigsaw-VERB.txt.
//
//go:embed help/jigsaw*.txt
var jigsawHelpFiles embed.FS

// jigsawHelp is the long help of the verb name (help/NAME.txt, less its
// last newline), its fields filled in: {{jigsaw solvers}} and {{gap
// solvers}}, the catalogue's lists, and {{max pieces}}.
func jigsawHelp(name string) string {
	b, err := jigsawHelpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(err)
	}
	return strings.NewReplacer("{{jigsaw solvers}}", catalog.Jigsaw.Help(), "{{gap solvers}}", catalog.Gaps.Help(),
		"{{max pieces}}", fmt.Sprint(jigsaw.DefaultMaxPieces)).Replace(strings.TrimSuffix(string(b), "\n"))
}
