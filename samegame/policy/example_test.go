package policy_test

import (
	"context"
	"fmt"

	"tessera/samegame"
	"tessera/samegame/policy"
)

// The shipped network clears the blog's example board.
func Example() {
	b, err := samegame.ParseBoard("GGGGBOYO/RORGYGBY/RRBGOORG/BRBOBYRG/BRYBBRGG/OYGGRORG", samegame.Dust)
	if err != nil {
		panic(err)
	}
	// A nil network means the shipped one (policy.Default).
	sol, err := policy.Beam{Width: 64}.Solve(context.Background(), b)
	if err != nil {
		panic(err)
	}
	res, err := samegame.Replay(b, sol.Moves)
	fmt.Println(res.Cleared, err, sol.Clicks >= 11) // 11 is the proven optimum
	// Output: true <nil> true
}
