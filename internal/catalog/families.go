package catalog

import (
	"maps"
	"sync"
)

var (
	familiesMu sync.Mutex
	families   = map[string]func() []Menu{}
)

// register adds a family's table to Families; each family file calls it
// from init with its family name (npuzzle, jigsaw, edgematch, samegame).
func register(family string, menu func() []Menu) {
	familiesMu.Lock()
	defer familiesMu.Unlock()
	families[family] = menu
}

// Families returns every family's menu by family name, for listings and
// the web app.
func Families() map[string][]Menu {
	familiesMu.Lock()
	defer familiesMu.Unlock()
	m := make(map[string][]Menu, len(families))
	for name, menu := range maps.All(families) {
		m[name] = menu()
	}
	return m
}
