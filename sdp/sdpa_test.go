package sdp

import (
	"bytes"
	"context"
	"math"
	"os"
	"strings"
	"testing"
)

// TestReadSDPAExample reads the example of CSDP's user's guide
// (example/example.c written in SDPA format) and solves it: both CSDP's
// command line (csdp testdata/example.dat-s) and the backends find 2.75.
func TestReadSDPAExample(t *testing.T) {
	f, err := os.Open("testdata/example.dat-s")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := ReadSDPA(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Blocks) != 3 || p.Blocks[2] != (Block{Size: 2, Diagonal: true}) || len(p.Constraints) != 2 || p.Constraints[1].B != 2 || len(p.C) != 7 {
		t.Fatalf("read %+v", p)
	}
	for name, s := range solvers() {
		sol, err := s.Solve(context.Background(), p)
		if err != nil || math.Abs(sol.PrimalObjective-2.75) > 1e-7 {
			t.Errorf("%s: %v %v", name, err, sol)
		}
	}
}

// TestSDPARoundTrip: writing, reading and writing again gives the same
// bytes, and the problem read back has the same optimum.
func TestSDPARoundTrip(t *testing.T) {
	probs := randomCases()[:4]
	for _, k := range knownOptima() {
		probs = append(probs, k.p)
	}
	for idx, p := range probs {
		var a, b bytes.Buffer
		if err := WriteSDPA(&a, p); err != nil {
			t.Fatal(err)
		}
		q, err := ReadSDPA(bytes.NewReader(a.Bytes()))
		if err != nil {
			t.Fatalf("case %d: %v\n%s", idx, err, a.String())
		}
		if err := WriteSDPA(&b, q); err != nil || a.String() != b.String() {
			t.Errorf("case %d: written twice differs (%v)", idx, err)
		}
		s1, err1 := IPM{}.Solve(context.Background(), p)
		s2, err2 := IPM{}.Solve(context.Background(), q)
		want := s1.PrimalObjective
		if p.Minimize {
			want = -want
		}
		if err1 != nil || err2 != nil || math.Abs(s2.PrimalObjective-want) > 1e-7*(1+math.Abs(want)) {
			t.Errorf("case %d: %v %v %v %v", idx, err1, err2, s1.PrimalObjective, s2.PrimalObjective)
		}
	}
}

// TestReadSDPAErrors: bad files are refused with the line of the fault.
func TestReadSDPAErrors(t *testing.T) {
	head := "\"c\n2\n2\n{2, -1}\n1 2\n"
	cases := []struct{ in, want string }{
		{"", "input ends before the number of constraints"},
		{"* only a comment\n", "input ends before the number of constraints"},
		{"x\n", "line 1: the number of constraints \"x\""},
		{"0\n1\n", "line 1: the number of constraints \"0\", want an integer in 1..1048576"},
		{"2\n-1\n", "line 2: the number of blocks \"-1\""},
		{"1\n1\n", "input ends after 0 of 1 block sizes"},
		{"1\n1\n0\n1\n", "line 3: block size \"0\""},
		{"1\n1\n99999999999\n1\n", "line 3: block size"},
		{"2\n1\n3\n1\n", "input ends after 1 of 2 right-hand sides"},
		{"1\n1\n3\nz\n", "line 4: \"z\" is not a number"},
		{"1\n1\n3\n1e999\n", "line 4: \"1e999\" out of range"},
		{head + "1 1 1 1\n", "line 6: 4 fields, want 5"},
		{head + "1 1 1 x 1\n", "line 6: \"x\" is not an integer"},
		{head + "3 1 1 1 1\n", "line 6: matrix 3 out of range 0..2"},
		{head + "1 3 1 1 1\n", "line 6: block 3 out of range 1..2"},
		{head + "1 1 3 1 1\n", "line 6: entry (3, 1) out of range of block 1 (size 2)"},
		{head + "1 1 0 1 1\n", "line 6: entry (0, 1) out of range"},
		{head + "1 2 1 2 1\n", "line 6: entry (1, 2) out of range of block 2 (size 1)"},
		{"1\n1\n-2\n1\n1 1 1 2 1\n", "line 5: off-diagonal entry (1, 2) in diagonal block 1"},
		{head + "1 1 1 1 nan\n2 1 1 1 1\n", "sdp: sdpa: constraint 0 entry 0: value NaN"},
		{head + "1 1 1 1 1\n", "sdp: sdpa: constraint 1 has no non-zero entry"},
		{head + "1 1 1 2 1\n2 1 1 2 -1\n2 1 1 2 1\n", "sdp: sdpa: constraint 1 has no non-zero entry"},
		{head + "1 1 1 2 1\n1 1 2 1 3\n", "sdp: sdpa: constraint 0: block 0 entries (0, 1) = 1 and (1, 0) = 3 differ"},
	}
	for _, c := range cases {
		_, err := ReadSDPA(strings.NewReader(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), "sdp: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
	// SDPLIB's header style, CRLF line ends and tabs.
	p, err := ReadSDPA(strings.NewReader("\"SDPLIB style\r\n1 =mdim\r\n1 =nblocks\r\n{2}\r\n1.0\r\n0\t1\t1\t2\t1.0\r\n1 1 1 1 1.0\r\n1 1 2 2 1.0\r\n"))
	if err != nil || len(p.Constraints) != 1 || len(p.C) != 1 || p.C[0] != E(0, 0, 1, 1) {
		t.Errorf("SDPLIB style: %v %+v", err, p)
	}
	if _, err := readSDPA(strings.NewReader(strings.Repeat(" ", 1001)), 1000); err == nil || !strings.Contains(err.Error(), "input over 1000 bytes") {
		t.Errorf("huge input: %v", err)
	}
}

// FuzzReadSDPA: no input makes ReadSDPA panic; a problem it accepts passes
// Validate and survives a write and a read unchanged.
func FuzzReadSDPA(f *testing.F) {
	if b, err := os.ReadFile("testdata/example.dat-s"); err == nil {
		f.Add(b)
	}
	for _, k := range knownOptima()[:3] {
		var buf bytes.Buffer
		WriteSDPA(&buf, k.p)
		f.Add(buf.Bytes())
	}
	f.Add([]byte("1\n1\n-2\n1\n1 1 1 1 1\n0 1 2 2 -1e-300\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadSDPA(bytes.NewReader(data))
		if err != nil {
			if p != nil || !strings.HasPrefix(err.Error(), "sdp: ") {
				t.Fatalf("error %v with problem %v", err, p)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("read but invalid: %v", err)
		}
		var a, b bytes.Buffer
		if err := WriteSDPA(&a, p); err != nil {
			t.Fatal(err)
		}
		q, err := ReadSDPA(&a)
		if err != nil {
			t.Fatalf("written problem unreadable: %v", err)
		}
		a.Reset()
		WriteSDPA(&a, p)
		WriteSDPA(&b, q)
		if a.String() != b.String() {
			t.Fatalf("round trip differs:\n%s\n%s", a.String(), b.String())
		}
	})
}
