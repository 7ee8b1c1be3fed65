package imageio

import (
	"image/color"
	"math"
	"sync"
)

// D65 reference white (CIE 15, 2-degree observer), Y normalised to 1.
const (
	whiteX = 0.95047
	whiteY = 1.0
	whiteZ = 1.08883
)

// cbrtSteps is the number of intervals of the cube-root table on [0, 1.1].
const (
	cbrtSteps = 1 << 14
	cbrtMax   = 1.1 // X/Xn and Z/Zn reach about 1.09 for saturated colours
)

type labTables struct {
	lin  [65536]float32         // sRGB 16-bit code -> linear [0, 1]
	cbrt [cbrtSteps + 2]float32 // f(t) at t = k*cbrtMax/cbrtSteps
}

var tables = sync.OnceValue(func() *labTables {
	t := new(labTables)
	for i := range t.lin {
		c := float64(i) / 65535
		if c <= 0.04045 {
			t.lin[i] = float32(c / 12.92)
		} else {
			t.lin[i] = float32(math.Pow((c+0.055)/1.055, 2.4))
		}
	}
	for k := range t.cbrt {
		t.cbrt[k] = float32(labF(float64(k) * cbrtMax / cbrtSteps))
	}
	return t
})

// labF is the CIE L*a*b* companding function.
func labF(t float64) float64 {
	const e = 216.0 / 24389
	if t > e {
		return math.Cbrt(t)
	}
	return (24389.0/27*t + 16) / 116
}

// f looks labF up with linear interpolation between table entries; the
// linear part below 216/24389 is exact.
func (t *labTables) f(v float32) float32 {
	if v <= 216.0/24389 {
		return (24389.0/27*v + 16) / 116
	}
	x := v * (cbrtSteps / cbrtMax)
	if x >= cbrtSteps {
		return float32(math.Cbrt(float64(v)))
	}
	k := int(x)
	fr := x - float32(k)
	return t.cbrt[k] + fr*(t.cbrt[k+1]-t.cbrt[k])
}

// Lab16 converts an sRGB colour with 16 bits per channel to CIE L*a*b*
// (D65): L in [0, 100], a and b roughly in [-128, 128]. Safe for concurrent
// use; the tables are built on first use.
func Lab16(r, g, b uint16) (L, A, B float32) {
	t := tables()
	rl, gl, bl := t.lin[r], t.lin[g], t.lin[b]
	x := (0.4124564*rl + 0.3575761*gl + 0.1804375*bl) / whiteX
	y := (0.2126729*rl + 0.7151522*gl + 0.0721750*bl) / whiteY
	z := (0.0193339*rl + 0.1191920*gl + 0.9503041*bl) / whiteZ
	fx, fy, fz := t.f(x), t.f(y), t.f(z)
	return 116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)
}

// Lab converts a colour to CIE L*a*b* (D65), ignoring alpha.
func Lab(c color.NRGBA64) (L, A, B float32) { return Lab16(c.R, c.G, c.B) }

// LabExact is Lab16 computed without tables, in float64: the reference for
// tests.
func LabExact(r, g, b uint16) (L, A, B float64) {
	lin := func(v uint16) float64 {
		c := float64(v) / 65535
		if c <= 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	rl, gl, bl := lin(r), lin(g), lin(b)
	x := (0.4124564*rl + 0.3575761*gl + 0.1804375*bl) / whiteX
	y := (0.2126729*rl + 0.7151522*gl + 0.0721750*bl) / whiteY
	z := (0.0193339*rl + 0.1191920*gl + 0.9503041*bl) / whiteZ
	fx, fy, fz := labF(x), labF(y), labF(z)
	return 116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)
}
