package nn

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/gomlx/gomlx/core/tensors"
)

// fileMagic starts a network file.
const fileMagic = "tessera-nn 1\n"

// maxWeights bounds the weight values of a network file (1 GiB of
// float32).
const maxWeights = 1 << 28

// params returns the number of weight values of a network of s (Conv
// layers keep the height and width; every layer has a bias), and false
// when it exceeds limit.
func (s Spec) params(limit int) (int, bool) {
	total := 0
	mul := func(a, b int) int { // a*b, or limit+1 on overflow of limit
		if a > 0 && b > limit/a {
			return limit + 1
		}
		return a * b
	}
	add := func(n int) bool {
		total += n
		return n <= limit && total <= limit
	}
	widths := slices.Concat(s.Conv, s.Hidden, []int{s.Outputs})
	if slices.ContainsFunc(widths, func(w int) bool { return w > limit }) {
		return 0, false
	}
	features := 1
	for _, d := range s.Input {
		if features = mul(features, d); features > limit {
			return 0, false
		}
	}
	if len(s.Conv) > 0 {
		cin, area := s.Input[2], features/s.Input[2]
		for _, c := range s.Conv {
			if !add(mul(9*cin, c) + c) {
				return 0, false
			}
			cin = c
		}
		if features = mul(area, cin); features > limit {
			return 0, false
		}
	}
	for _, w := range widths[len(s.Conv):] {
		if !add(mul(features, w) + w) {
			return 0, false
		}
		features = w
	}
	return total, true
}

// fileHeader is the JSON line after the magic.
type fileHeader struct {
	Spec Spec      `json:"spec"`
	Vars []fileVar `json:"vars"`
	// Info is free text about the network (how it was trained).
	Info map[string]string `json:"info,omitempty"`
}

type fileVar struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
}

// Write writes the network to w: the line "tessera-nn 1", one line of
// JSON (the Spec, the weights' names and shapes, and info, free text such
// as how it was trained), then every weight as little-endian float32 in
// the order of the header. The optimizer's state is not saved: training a
// loaded network starts Adam afresh. The network must have been used
// (Logits or Train) so that its weights exist.
func (n *Net) Write(w io.Writer, info map[string]string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	ws := n.weights()
	if len(ws) == 0 {
		return errors.New("nn: the network has no weights yet (run it once first)")
	}
	h := fileHeader{Spec: n.spec, Info: info}
	shapes := map[string][]int{}
	for v := range n.store.IterVariables() {
		if isModelVar(v) {
			shapes[v.Path()] = v.Shape().Dimensions
		}
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range ws {
			if !yield(k) {
				return
			}
		}
	}) {
		h.Vars = append(h.Vars, fileVar{Name: name, Shape: shapes[name]})
	}
	js, err := json.Marshal(h)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(fileMagic)
	bw.Write(js)
	bw.WriteByte('\n')
	var b [4]byte
	for _, v := range h.Vars {
		for _, f := range ws[v.Name] {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(f))
			bw.Write(b[:])
		}
	}
	return bw.Flush()
}

// Save writes the network to the file path (see Write), atomically.
func (n *Net) Save(path string, info map[string]string) error {
	var buf bytes.Buffer
	if err := n.Write(&buf, info); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Read reads a network written by Write and returns it with its info.
// Errors say what is wrong with the data.
func Read(r io.Reader) (*Net, map[string]string, error) {
	br := bufio.NewReader(r)
	magic := make([]byte, len(fileMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != fileMagic {
		return nil, nil, errors.New("nn: not a network file (want a first line \"tessera-nn 1\")")
	}
	line, err := br.ReadBytes('\n')
	if err != nil {
		return nil, nil, fmt.Errorf("nn: header: %w", err)
	}
	var h fileHeader
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, nil, fmt.Errorf("nn: header: %w", err)
	}
	net, err := New(h.Spec, 0)
	if err != nil {
		return nil, nil, err
	}
	// The spec says how many weights to expect; bounding it first keeps a
	// damaged or hostile header from building a huge network.
	want, ok := h.Spec.params(maxWeights)
	if !ok {
		return nil, nil, fmt.Errorf("nn: the network of the header is too large (more than %d weights)", maxWeights)
	}
	total := 0
	for _, v := range h.Vars {
		size := 1
		for _, d := range v.Shape {
			if d <= 0 || d > maxWeights {
				return nil, nil, fmt.Errorf("nn: weight %q has bad shape %v", v.Name, v.Shape)
			}
			size *= d
			if size > maxWeights {
				return nil, nil, fmt.Errorf("nn: weight %q too large", v.Name)
			}
		}
		if total += size; total > maxWeights {
			return nil, nil, errors.New("nn: too many weights")
		}
		if !strings.HasPrefix(v.Name, "/"+modelScope+"/") {
			return nil, nil, fmt.Errorf("nn: weight %q is outside the model", v.Name)
		}
		flat := make([]float32, size)
		if err := binary.Read(br, binary.LittleEndian, flat); err != nil {
			return nil, nil, fmt.Errorf("nn: weight %q: %w", v.Name, err)
		}
		if _, err := net.store.CreateVariable(v.Name, tensors.FromFlatDataAndDimensions(flat, v.Shape...)); err != nil {
			return nil, nil, fmt.Errorf("nn: %w", err)
		}
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, nil, errors.New("nn: trailing data after the weights")
	}
	if total != want {
		return nil, nil, fmt.Errorf("nn: the file has %d weight values, the spec needs %d", total, want)
	}
	// Check that the weights fit the spec: a shape mismatch would panic in
	// graph building, so run one example now.
	if err := net.check(); err != nil {
		return nil, nil, err
	}
	if got := len(net.weights()); got != len(h.Vars) {
		return nil, nil, fmt.Errorf("nn: the file has %d weights, the spec needs %d", len(h.Vars), got)
	}
	return net, h.Info, nil
}

// check runs one zero example, turning a panic of graph building (weights
// that do not fit the spec) into an error.
func (n *Net) check() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("nn: weights do not fit the spec: %v", r)
		}
	}()
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, err = n.graphLogits(make([]float32, n.spec.InputSize())); err != nil {
		return err
	}
	_, err = newFastNet(n.spec, n.weights())
	return err
}

// Load reads the network file path (see Read).
func Load(path string) (*Net, map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return Read(f)
}
