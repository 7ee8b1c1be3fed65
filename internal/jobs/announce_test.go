package jobs

import (
	"strings"
	"testing"
)

// A server's first start shows its token once; a restart on the same
// store names only the files.
func TestAnnounce(t *testing.T) {
	dir := t.TempDir()
	for i, wantToken := range []bool{true, false} {
		s, err := StartServer(t.Context(), ServerOptions{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		s.Announce(&sb, "tessera worker -nats URL")
		s.Shutdown()
		got := sb.String()
		if strings.Contains(got, s.Token()) != wantToken || !strings.Contains(got, "clients: tessera worker -nats URL -creds "+s.TokenFile()+" (copies") {
			t.Errorf("start %d:\n%s", i+1, got)
		}
	}
}
