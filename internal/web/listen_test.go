package web

import (
	"net"
	"regexp"
	"strings"
	"testing"
)

// ServeToken's choices for every combination of -token and -open on
// loopback and beyond, and what AnnounceToken prints for them.
func TestServeToken(t *testing.T) {
	loop := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	wide := &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 8080}
	const good = "correct horse battery staple"
	drawn := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for _, c := range []struct {
		addr        net.Addr
		token       string
		given, open bool
		want, err   string // want "drawn": a random token
		announce    string
	}{
		{addr: loop, want: ""},
		{addr: loop, token: good, given: true, want: good, announce: "clients need the token given by -token: open http://127.0.0.1:8080/?token=TOKEN"},
		{addr: loop, given: true, want: ""},
		{addr: wide, want: "drawn", announce: "this server asks for a token; open (shown this once):\n    http://10.1.2.3:8080/?token="},
		{addr: wide, token: good, given: true, want: good, announce: "clients need the token given by -token: open http://10.1.2.3:8080/?token=TOKEN"},
		{addr: wide, given: true, err: "add -open"},
		{addr: wide, open: true, want: "", announce: "WARNING: serving beyond loopback without a token (-open): anyone who reaches http://10.1.2.3:8080/ can use this server"},
		{addr: wide, given: true, open: true, want: "", announce: "WARNING: serving beyond loopback without a token"},
		{addr: wide, token: good, given: true, open: true, err: "-open serves without a token; it does not go with -token"},
		{addr: loop, token: "short", given: true, err: "at least 16 characters"},
	} {
		got, err := ServeToken(c.addr, c.token, c.given, c.open)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: %q, %v; want the error %q", c, got, err, c.err)
			}
			continue
		case err != nil || (c.want == "drawn" && !drawn.MatchString(got)) || (c.want != "drawn" && got != c.want):
			t.Errorf("%+v: %q, %v", c, got, err)
			continue
		}
		var sb strings.Builder
		AnnounceToken(&sb, c.addr, got, c.given)
		if c.announce == "" && sb.Len() > 0 || !strings.Contains(sb.String(), c.announce) || c.given && strings.Contains(sb.String(), good) {
			t.Errorf("%+v: announced %q, want %q", c, sb.String(), c.announce)
		}
	}
	if a, b := must(ServeToken(wide, "", false, false)), must(ServeToken(wide, "", false, false)); a == b {
		t.Errorf("two drawn tokens are the same: %s", a)
	}
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}
