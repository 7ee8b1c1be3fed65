package nn_test

import (
	"context"
	"fmt"

	"tessera/nn"
)

// A network learns the AND of two inputs.
func Example() {
	var d nn.Data
	for range 64 {
		for _, in := range [][2]float32{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
			d.X = append(d.X, in[0], in[1])
			d.Y = append(d.Y, in[0]*in[1])
			d.N++
		}
	}
	net, err := nn.New(nn.Spec{Input: []int{2}, Hidden: []int{8}, Outputs: 1}, 1)
	if err != nil {
		panic(err)
	}
	if _, err := net.Train(context.Background(), d, nn.TrainOptions{Epochs: 40, LearningRate: 0.02, Validation: -1}); err != nil {
		panic(err)
	}
	logits, _ := net.Logits([]float32{0, 1, 1, 1})
	fmt.Println(logits[0] < 0, logits[1] > 0)
	// Output: true true
}
