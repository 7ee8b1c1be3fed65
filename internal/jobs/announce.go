package jobs

import (
	"fmt"
	"io"
)

// Announce writes to w where the server's token (and certificate) are and
// what a client, the command line client, passes to reach it; the token
// itself only at the store's first start, once.
func (s *Server) Announce(w io.Writer, client string) {
	if s.NewToken() {
		fmt.Fprintf(w, "new token (shown this once; kept in %s, mode 0600): %s\n", s.TokenFile(), s.Token())
	}
	line := fmt.Sprintf("clients: %s -creds %s", client, s.TokenFile())
	if s.CertFile() != "" {
		line += " -tls-ca " + s.CertFile()
	}
	fmt.Fprintln(w, line+" (copies of these files on other machines; on this one they are found by themselves)")
}
