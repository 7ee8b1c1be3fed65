package neural_test

import (
	"context"
	"fmt"

	"tessera/imageio"
	"tessera/jigsaw/neural"
)

// Solve a 3x3 gap puzzle cut from the middle of a photograph with the
// shipped model.
func Example() {
	img, err := imageio.Load("testdata/kodak23.png", imageio.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _, err := neural.Default()
	if err != nil {
		fmt.Println(err)
		return
	}
	pz := neural.Centre(img.Pix, neural.Geometry{}, 1)
	res, err := neural.Solve(context.Background(), m, pz, neural.Options{Sims: 50, Reward: neural.GroundTruth, Attempts: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("perfect:", pz.Score(res.Cells).Perfect)
	// Output: perfect: true
}
