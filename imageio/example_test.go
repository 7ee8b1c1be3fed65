package imageio_test

import (
	"fmt"

	"tessera/imageio"
)

func Example() {
	img, err := imageio.Load("testdata/rgb16.png", imageio.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(img.Format, img.Depth, img.Pix.Bounds().Size())
	L, a, b := imageio.Lab16(65535, 0, 0) // sRGB red
	fmt.Printf("%.1f %.1f %.1f\n", L, a, b)
	// Output:
	// png 16 (8,6)
	// 53.2 80.1 67.2
}
