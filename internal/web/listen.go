package web

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
)

// ServeToken returns the token a server listening on addr asks of its
// clients (Config.Token), as `tessera serve` chooses it from -token
// (given: the flag was set, to token) and -open: on loopback none unless
// one is given; beyond loopback the given one or one drawn at random (16
// bytes, hex); open serves beyond loopback without one. A given token
// shorter than 16 characters, a token with open and an empty token beyond
// loopback without open are refused: the errors name the flags.
func ServeToken(addr net.Addr, token string, given, open bool) (string, error) {
	switch {
	case open && given && token != "":
		return "", fmt.Errorf("-open serves without a token; it does not go with -token %q", token)
	case given && token != "" && len(token) < 16:
		return "", errors.New("-token: at least 16 characters (a guessable token is no lock)")
	case given && token != "":
		return token, nil
	case given && !IsLoopback(addr) && !open:
		return "", fmt.Errorf("-token '' beyond loopback (%s) would let anyone who reaches the port use the server; add -open if the network is trusted", addr)
	case open || IsLoopback(addr):
		return "", nil
	}
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:]), nil
}

// IsLoopback reports whether a listener's address is a loopback one.
func IsLoopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

// AnnounceToken prints to w how to reach a server on addr that asks for
// token: the URL with it when it was drawn (not given), once; or a
// warning for a server beyond loopback that asks for none. An unspecified
// address (0.0.0.0) is shown by the host's name.
func AnnounceToken(w io.Writer, addr net.Addr, token string, given bool) {
	host, port, _ := net.SplitHostPort(addr.String())
	if t, ok := addr.(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		if h, err := os.Hostname(); err == nil {
			host = h
		}
	}
	url := "http://" + net.JoinHostPort(host, port) + "/"
	switch {
	case token == "" && !IsLoopback(addr):
		fmt.Fprintf(w, "tessera: WARNING: serving beyond loopback without a token (-open): anyone who reaches %s can use this server\n", url)
	case token != "" && given:
		fmt.Fprintf(w, "tessera: clients need the token given by -token: open %s?token=TOKEN\n", url)
	case token != "":
		fmt.Fprintf(w, "tessera: this server asks for a token; open (shown this once):\n    %s?token=%s\n", url, token)
	}
}
