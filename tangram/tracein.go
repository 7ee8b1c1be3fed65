package tangram

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // pictures the tracer reads
	_ "image/jpeg"
	_ "image/png"
	"io"
	"strconv"
	"strings"
)

// MaxPictureBytes bounds a picture or SVG file that TraceFile reads.
const MaxPictureBytes = 64 << 20

// TraceFile reads a picture (PNG, JPEG or GIF) or an SVG drawing and
// traces it: pictures with Trace, SVG with ParseSVG and TraceLoops. The
// input is bounded (MaxPictureBytes, and the picture's size from its
// header before it is decoded).
func TraceFile(r io.Reader, o TraceOptions) (TraceResult, error) {
	o = o.defaults()
	data, err := io.ReadAll(io.LimitReader(r, MaxPictureBytes+1))
	if err != nil {
		return TraceResult{}, err
	}
	if len(data) > MaxPictureBytes {
		return TraceResult{}, fmt.Errorf("tangram: trace: file larger than %d bytes", MaxPictureBytes)
	}
	head := strings.TrimSpace(string(data[:min(len(data), 512)]))
	if strings.HasPrefix(head, "<") {
		loops, err := ParseSVG(string(data))
		if err != nil {
			return TraceResult{}, err
		}
		return TraceLoops(loops, o)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return TraceResult{}, fmt.Errorf("tangram: trace: %v", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > o.MaxPixels || cfg.Width > 1<<15 || cfg.Height > 1<<15 {
		return TraceResult{}, fmt.Errorf("tangram: trace: picture %dx%d, want at most %d pixels", cfg.Width, cfg.Height, o.MaxPixels)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return TraceResult{}, fmt.Errorf("tangram: trace: %v", err)
	}
	return Trace(img, o)
}

// ParseSVG returns the loops of the d attributes of an SVG file's path
// elements (ParseSVGPath each), y turned up.
func ParseSVG(doc string) ([][][2]float64, error) {
	var loops [][][2]float64
	rest := doc
	found := false
	for {
		i := strings.Index(rest, "<path")
		if i < 0 {
			break
		}
		rest = rest[i+5:]
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return nil, fmt.Errorf("tangram: svg: unclosed <path")
		}
		tag := rest[:end]
		j := strings.Index(tag, " d=")
		if j < 0 {
			continue
		}
		val := tag[j+3:]
		if val == "" || val[0] != '"' && val[0] != '\'' {
			return nil, fmt.Errorf("tangram: svg: d= without quotes")
		}
		k := strings.IndexByte(val[1:], val[0])
		if k < 0 {
			return nil, fmt.Errorf("tangram: svg: unclosed d attribute")
		}
		ls, err := ParseSVGPath(val[1 : k+1])
		if err != nil {
			return nil, err
		}
		found = true
		loops = append(loops, ls...)
		if len(loops) > MaxRegionPolygons+1 {
			return nil, fmt.Errorf("tangram: svg: more than %d outlines", MaxRegionPolygons+1)
		}
	}
	if !found {
		return nil, fmt.Errorf("tangram: svg: no <path d=...>")
	}
	return loops, nil
}

// ParseSVGPath reads the straight-line commands of an SVG path (M, L, H,
// V, Z and their relative forms m, l, h, v, z; numbers separated by
// spaces or commas) and returns its subpaths as closed loops with y
// turned up (SVG's y runs down). Curves are refused. At most
// MaxTotalVertices points.
func ParseSVGPath(d string) ([][][2]float64, error) {
	if len(d) > MaxFileBytes {
		return nil, fmt.Errorf("tangram: svg path longer than %d bytes", MaxFileBytes)
	}
	toks := svgTokens(d)
	var loops [][][2]float64
	var cur [][2]float64
	var x, y, sx, sy float64
	total := 0
	cmd := byte(0)
	flush := func() {
		if len(cur) >= 3 {
			loops = append(loops, cur)
		}
		cur = nil
	}
	num := func(k *int) (float64, error) {
		if *k >= len(toks) {
			return 0, fmt.Errorf("tangram: svg path: command %c wants more numbers", cmd)
		}
		v, err := strconv.ParseFloat(toks[*k], 64)
		if err != nil || v != v || v > 1e9 || v < -1e9 {
			return 0, fmt.Errorf("tangram: svg path: bad number %q", toks[*k])
		}
		*k++
		return v, nil
	}
	for k := 0; k < len(toks); {
		t := toks[k]
		if len(t) == 1 && strings.ContainsRune("MmLlHhVvZz", rune(t[0])) {
			cmd = t[0]
			k++
			if cmd == 'Z' || cmd == 'z' {
				x, y = sx, sy
				flush()
				continue
			}
		} else if len(t) == 1 && strings.ContainsRune("CcSsQqTtAa", rune(t[0])) {
			return nil, fmt.Errorf("tangram: svg path: curves (%c) are not read: draw straight lines", t[0])
		} else if cmd == 0 || cmd == 'Z' || cmd == 'z' {
			return nil, fmt.Errorf("tangram: svg path: %q where a command is wanted", t)
		}
		var err error
		var a, b float64
		switch cmd {
		case 'M', 'm', 'L', 'l':
			if a, err = num(&k); err == nil {
				b, err = num(&k)
			}
			if err != nil {
				return nil, err
			}
			if cmd == 'm' || cmd == 'l' {
				a, b = x+a, y+b
			}
			if cmd == 'M' || cmd == 'm' {
				flush()
				sx, sy = a, b
				if cmd == 'M' {
					cmd = 'L'
				} else {
					cmd = 'l'
				}
			}
			x, y = a, b
		case 'H', 'h', 'V', 'v': // one coordinate: x for H, y for V
			c := &x
			if cmd == 'V' || cmd == 'v' {
				c = &y
			}
			if a, err = num(&k); err != nil {
				return nil, err
			}
			if cmd == 'h' || cmd == 'v' {
				a += *c
			}
			*c = a
		}
		if total++; total > MaxTotalVertices {
			return nil, fmt.Errorf("tangram: svg path: more than %d points", MaxTotalVertices)
		}
		if n := len(cur); n == 0 || cur[n-1] != [2]float64{x, -y} {
			cur = append(cur, [2]float64{x, -y})
		}
	}
	flush()
	if len(loops) == 0 {
		return nil, fmt.Errorf("tangram: svg path: no closed outline")
	}
	return loops, nil
}

// svgTokens splits a path into commands and numbers ("M10-5.5e1,3z" ->
// M 10 -5.5e1 3 z).
func svgTokens(d string) []string {
	var out []string
	i := 0
	for i < len(d) {
		c := d[i]
		switch {
		case c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c >= 'A' && c <= 'Z' && c != 'E' || c >= 'a' && c <= 'z' && c != 'e':
			out = append(out, d[i:i+1])
			i++
		default:
			j := i + 1
			for j < len(d) {
				cj := d[j]
				if cj >= '0' && cj <= '9' || cj == '.' || cj == 'e' || cj == 'E' || (cj == '-' || cj == '+') && (d[j-1] == 'e' || d[j-1] == 'E') {
					j++
					continue
				}
				break
			}
			out = append(out, d[i:j])
			i = j
		}
	}
	return out
}
