package catalog_test

import (
	"fmt"

	"tessera/internal/catalog"
)

// Example looks a solver up by its -algo id and lists a family's ids.
func Example() {
	e, err := catalog.SameGame.Lookup("exact")
	if err != nil {
		panic(err)
	}
	fmt.Println(e.ID, e.Optimal)
	fmt.Println(catalog.EdgeMatch.IDs())
	_, err = catalog.Npuzzle.Lookup("magic")
	fmt.Println(err != nil)
	// Output:
	// exact true
	// [dfs partial tiles lns lp sdp sat]
	// true
}
