package tangram

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Num is an exact number a + b√2 with a and b multiples of 1/2: the field
// Q(√2) restricted to the lattice ½Z[√2]. It is stored as the two integers
// 2a and 2b, so addition, subtraction, negation and comparison are exact
// integer operations and allocate nothing.
//
// Why this ring: the seven tans, cut from a square of side 2√2 (units where
// the small triangle's legs are 1), have every vertex in ½Z[√2] in the
// familiar axis-aligned picture, and every vertex in Z when the square is
// turned by 45 degrees; a tan turned by any multiple of 45 degrees about
// one of its vertices stays in ½Z[√2]. Rationals alone cannot hold the
// axis-aligned square (its centre is (√2, √2)), and floating point cannot
// decide whether two edges touch or overlap. Denominators other than 2 are
// not needed by any tangram figure; a polygon with other rational
// coordinates is scaled before it is written (coordinates are bounded by
// MaxCoord, so every product used by the predicates fits in 64 bits and
// every sign test in 128).
type Num struct{ a2, b2 int64 } // value (a2 + b2·√2)/2

// Int returns the integer n as a Num.
func Int(n int64) Num { return Num{2 * n, 0} }

// N returns a + b√2 for integers a and b.
func N(a, b int64) Num { return Num{2 * a, 2 * b} }

// Half returns (a + b√2)/2 for integers a and b.
func Half(a, b int64) Num { return Num{a, b} }

// Parts returns 2a and 2b for the number a + b√2.
func (x Num) Parts() (a2, b2 int64) { return x.a2, x.b2 }

// Add returns x + y.
func (x Num) Add(y Num) Num { return Num{x.a2 + y.a2, x.b2 + y.b2} }

// Sub returns x - y.
func (x Num) Sub(y Num) Num { return Num{x.a2 - y.a2, x.b2 - y.b2} }

// Neg returns -x.
func (x Num) Neg() Num { return Num{-x.a2, -x.b2} }

// IsZero reports whether x == 0.
func (x Num) IsZero() bool { return x.a2 == 0 && x.b2 == 0 }

// Sign returns -1, 0 or +1, exactly.
func (x Num) Sign() int { return signR2(x.a2, x.b2) }

// Cmp compares x and y exactly: -1 if x < y, 0 if equal, +1 if x > y.
func (x Num) Cmp(y Num) int { return x.Sub(y).Sign() }

// Float64 returns the nearest float64 (to within a few ulps).
func (x Num) Float64() float64 { return (float64(x.a2) + float64(x.b2)*math.Sqrt2) / 2 }

// String writes x as Parse reads it: "3", "-1.5", "r2", "-0.5r2",
// "1+2r2", "0.5-1.5r2" (r2 stands for √2).
func (x Num) String() string {
	if x.b2 == 0 {
		return halves(x.a2)
	}
	b := ""
	switch x.b2 {
	case 2:
		b = "r2"
	case -2:
		b = "-r2"
	default:
		b = halves(x.b2) + "r2"
	}
	if x.a2 == 0 {
		return b
	}
	if x.b2 > 0 {
		b = "+" + b
	}
	return halves(x.a2) + b
}

// halves writes v/2 as an integer or with ".5".
func halves(v int64) string {
	if v%2 == 0 {
		return strconv.FormatInt(v/2, 10)
	}
	if v < 0 {
		return "-" + strconv.FormatInt(-v/2, 10) + ".5"
	}
	return strconv.FormatInt(v/2, 10) + ".5"
}

// MaxCoord bounds the magnitude of both parts a and b of every coordinate
// and translation read by the parsers (|a|, |b| <= MaxCoord), so that the
// exact predicates cannot overflow.
const MaxCoord = 1 << 16

// ParseNum reads a number written as String writes it: an optional
// rational part and an optional √2 part, each an integer or an integer
// and ".5", with "r2" after the √2 coefficient ("r2" alone is √2). Both
// parts must be at most MaxCoord in magnitude.
func ParseNum(s string) (Num, error) {
	if s == "" {
		return Num{}, fmt.Errorf("empty number")
	}
	orig := s
	var x Num
	if strings.HasSuffix(s, "r2") {
		body := s[:len(s)-2]
		// split the √2 part off at its sign (not the leading one).
		cut := -1
		for i := len(body) - 1; i > 0; i-- {
			if body[i] == '+' || body[i] == '-' {
				cut = i
				break
			}
		}
		coef := body
		if cut > 0 {
			a, err := parseHalves(body[:cut])
			if err != nil {
				return Num{}, fmt.Errorf("number %q: %v", orig, err)
			}
			x.a2 = a
			coef = body[cut:]
		}
		switch coef {
		case "", "+":
			x.b2 = 2
		case "-":
			x.b2 = -2
		default:
			if cut > 0 && coef[0] == '+' {
				coef = coef[1:]
				if coef == "" || coef[0] == '-' || coef[0] == '+' {
					return Num{}, fmt.Errorf("number %q: bad √2 coefficient", orig)
				}
			}
			b, err := parseHalves(coef)
			if err != nil {
				return Num{}, fmt.Errorf("number %q: %v", orig, err)
			}
			if b == 0 {
				return Num{}, fmt.Errorf("number %q: write no zero √2 part", orig)
			}
			x.b2 = b
		}
	} else {
		a, err := parseHalves(s)
		if err != nil {
			return Num{}, fmt.Errorf("number %q: %v", orig, err)
		}
		x.a2 = a
	}
	return x, nil
}

// parseHalves reads [-]digits[.5] or [-]digits.0 and returns twice its
// value, at most 2*MaxCoord in magnitude.
func parseHalves(s string) (int64, error) {
	neg := false
	if s != "" && s[0] == '-' {
		neg, s = true, s[1:]
	}
	frac := int64(0)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		switch s[i+1:] {
		case "5":
			frac = 1
		case "0":
		default:
			return 0, fmt.Errorf("only halves are exact here (.5)")
		}
		s = s[:i]
	}
	if s == "" || len(s) > 7 {
		return 0, fmt.Errorf("not a number of at most 7 digits")
	}
	v := int64(0)
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("not a number")
		}
		v = 10*v + int64(c-'0')
	}
	if v > MaxCoord || v == MaxCoord && frac != 0 {
		return 0, fmt.Errorf("magnitude above %d", MaxCoord)
	}
	v = 2*v + frac
	if neg {
		v = -v
	}
	return v, nil
}

// signR2 returns the sign of a + b√2 exactly for any int64 a, b with
// |a|, |b| < 2^62.
func signR2(a, b int64) int {
	switch {
	case a >= 0 && b >= 0:
		if a == 0 && b == 0 {
			return 0
		}
		return 1
	case a <= 0 && b <= 0:
		return -1
	}
	// opposite signs: compare a² with 2b².
	ua, ub := abs64(a), abs64(b)
	ah, al := bits.Mul64(ua, ua)
	bh, bl := bits.Mul64(ub, ub)
	bh = bh<<1 | bl>>63
	bl <<= 1
	c := 0
	switch {
	case ah > bh || ah == bh && al > bl:
		c = 1
	case ah == bh && al == bl:
		c = 0 // impossible for b != 0 (√2 is irrational)
	default:
		c = -1
	}
	if a > 0 {
		return c
	}
	return -c
}

func abs64(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// zr2 is an element a + b√2 of Z[√2], the ring in which the predicates
// compute (products of two Nums, in quarter units).
type zr2 struct{ a, b int64 }

func (x zr2) add(y zr2) zr2 { return zr2{x.a + y.a, x.b + y.b} }
func (x zr2) sub(y zr2) zr2 { return zr2{x.a - y.a, x.b - y.b} }
func (x zr2) sign() int     { return signR2(x.a, x.b) }
func (x zr2) cmp(y zr2) int { return x.sub(y).sign() }
func (x zr2) float() float64 {
	return float64(x.a) + float64(x.b)*math.Sqrt2
}

// mul returns 4·x·y in Z[√2] for two Nums (their product in quarter units).
func mul(x, y Num) zr2 {
	return zr2{x.a2*y.a2 + 2*x.b2*y.b2, x.a2*y.b2 + x.b2*y.a2}
}
