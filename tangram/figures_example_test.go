package tangram_test

import (
	"context"
	"fmt"

	"tessera/tangram"
)

// The figure set for a page of thumbnails: categories with their counts,
// and one figure's outline (float polygons, holes apart) and solution.
func ExampleFigures() {
	cats, counts := tangram.FigureCategories()
	for k := range cats {
		fmt.Println(cats[k], counts[k])
	}
	f, _ := tangram.FigureByName("letter-o")
	outers, holes := f.Outline()
	fmt.Println(f.Category, f.Source, len(outers), "outer polygon,", len(holes), "hole")
	res, _ := tangram.Exact{}.Solve(context.Background(), f.Puzzle)
	fmt.Println("solved:", res.Solved)
	// Output:
	// animals 38
	// boats 7
	// geometric 18
	// letters 17
	// numerals 9
	// objects 10
	// octominoes 123
	// people 14
	// letters composed for Tessera 1 outer polygon, 1 hole
	// solved: true
}
