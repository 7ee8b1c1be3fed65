package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/flock"
)

type head struct {
	Journal string `json:"journal"`
	Set     string `json:"set"`
}

func (h head) Kind() string { return h.Journal }

type entry struct {
	N int `json:"n"`
}

func spec(got *[]int) Spec[head] {
	return Spec[head]{What: "a test run", Describe: func(h head) string { return "set " + h.Set }, Hint: "a new file",
		Entry: func(line []byte) error {
			var e entry
			if err := Strict(line, &e); err != nil {
				return err
			}
			*got = append(*got, e.N)
			return nil
		}}
}

// TestJournalResumes: a journal keeps what a run added across a reopen,
// drops a last line cut short, refuses a journal of another run and a file
// that is none, and is locked while open.
func TestJournalResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	h := head{Journal: "test", Set: "a"}
	var got []int
	j, err := Open(path, h, spec(&got))
	if err != nil || len(got) != 0 {
		t.Fatalf("a new journal: %v %v", got, err)
	}
	if flock.Supported {
		if _, err := Open(path, h, spec(&got)); !errors.Is(err, ErrBusy) {
			t.Fatalf("a second open while the first holds it: %v", err)
		}
	}
	j.Add(entry{1})
	j.Add(entry{2})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	// A run killed while writing its third line.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"n":3`)
	f.Close()
	if j, err = Open(path, h, spec(&got)); err != nil {
		t.Fatal(err)
	}
	j.Add(entry{4})
	j.Close()
	if len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("read %v, want [1 2]", got)
	}
	data, _ := os.ReadFile(path)
	want := `{"journal":"test","set":"a"}` + "\n" + `{"n":1}` + "\n" + `{"n":2}` + "\n" + `{"n":4}` + "\n"
	if string(data) != want {
		t.Fatalf("journal %q, want %q", data, want)
	}

	got = nil
	_, err = Open(path, head{Journal: "test", Set: "b"}, spec(&got))
	if err == nil || !strings.Contains(err.Error(), "another run: set a, this one: set b (a new file)") {
		t.Fatalf("a journal of another run: %v", err)
	}
	_, err = Open(path, head{Journal: "other", Set: "a"}, spec(&got))
	if err == nil || !strings.Contains(err.Error(), "not a journal of a test run") {
		t.Fatalf("a journal of another kind: %v", err)
	}
	other := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(other, []byte("dear diary"), 0o644)
	if _, err := Open(other, h, spec(&got)); err == nil {
		t.Fatal("a file that is no journal was opened")
	}
	if data, _ := os.ReadFile(other); string(data) != "dear diary" {
		t.Fatalf("the refused file was changed: %q", data)
	}
	if _, err := Open(t.TempDir(), h, spec(&got)); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("a folder: %v", err)
	}
}

// FuzzRead: no input makes Read panic; what it accepts is a prefix of
// complete lines.
func FuzzRead(f *testing.F) {
	h := head{Journal: "test", Set: "a"}
	line, _ := json.Marshal(h)
	line = append(line, '\n')
	f.Add(line)
	f.Add(append(bytes.Clone(line), "{\"n\":1}\n{\"n\""...))
	f.Add([]byte("x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []int
		good, err := Read(bytes.NewReader(data), h, spec(&got))
		if err != nil {
			return
		}
		if good > int64(len(data)) || good > 0 && data[good-1] != '\n' {
			t.Fatalf("%d good bytes of %d", good, len(data))
		}
	})
}
