package faultfs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// mount mounts a lazy file system for the test, or skips it where FUSE
// mounts are refused.
func mount(t *testing.T) (f *FS, mnt, backing string) {
	t.Helper()
	mnt, backing = t.TempDir(), t.TempDir()
	f, err := Mount(mnt, backing)
	if err != nil {
		t.Skipf("no FUSE mount here (needs /dev/fuse and the right to mount): %v", err)
	}
	t.Cleanup(func() { f.Unmount() })
	return f, mnt, backing
}

func content(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLazy: writes stay in memory, readable through the mount, until
// fsync; Crash drops what was not synced and only that.
func TestLazy(t *testing.T) {
	f, mnt, backing := mount(t)
	file, err := os.OpenFile(filepath.Join(mnt, "a"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	synced := bytes.Repeat([]byte("synced."), 1000) // 7,000 bytes: two pages
	if _, err := file.Write(synced); err != nil {
		t.Fatal(err)
	}
	if got := content(t, filepath.Join(backing, "a")); len(got) != 0 {
		t.Fatalf("backing file has %d bytes before fsync, want 0", len(got))
	}
	if got := content(t, filepath.Join(mnt, "a")); !bytes.Equal(got, synced) {
		t.Fatalf("read through the mount: %d bytes, want %d (read-your-writes)", len(got), len(synced))
	}
	if fi, err := os.Stat(filepath.Join(mnt, "a")); err != nil || fi.Size() != int64(len(synced)) {
		t.Fatalf("size through the mount: %v, %v", fi, err)
	}
	if err := file.Sync(); err != nil {
		t.Fatal(err)
	}
	if got := content(t, filepath.Join(backing, "a")); !bytes.Equal(got, synced) {
		t.Fatalf("backing after fsync: %d bytes, want %d", len(got), len(synced))
	}
	// Overwrite the middle of a synced page, append, and do not sync.
	if _, err := file.WriteAt([]byte("LOST"), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := file.WriteAt([]byte("tail, lost too"), int64(len(synced))); err != nil {
		t.Fatal(err)
	}
	if n := f.Unsynced(); n != 18 {
		t.Errorf("Unsynced = %d, want 18", n)
	}
	want := append(bytes.Clone(synced), "tail, lost too"...)
	copy(want[10:], "LOST")
	if got := content(t, filepath.Join(mnt, "a")); !bytes.Equal(got, want) {
		t.Fatalf("read through the mount after the unsynced writes differs")
	}
	// A second file, never synced; a third opened O_SYNC.
	if err := os.WriteFile(filepath.Join(mnt, "b"), []byte("never synced"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(filepath.Join(mnt, "c"), os.O_CREATE|os.O_WRONLY|os.O_SYNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write([]byte("written through")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if n := f.Crash(); n != 18+12 {
		t.Errorf("Crash dropped %d bytes, want %d", n, 18+12)
	}
	if got := content(t, filepath.Join(backing, "a")); !bytes.Equal(got, synced) {
		t.Errorf("a after the crash: %d bytes, want the %d synced", len(got), len(synced))
	}
	if got := content(t, filepath.Join(backing, "b")); len(got) != 0 {
		t.Errorf("b after the crash: %q, want empty (created, never synced)", got)
	}
	if got := content(t, filepath.Join(backing, "c")); string(got) != "written through" {
		t.Errorf("c (O_SYNC) after the crash: %q", got)
	}
}

// TestRenameThenSync: unsynced data follows its file through a rename,
// and SyncAll writes every file through.
func TestRenameThenSync(t *testing.T) {
	f, mnt, backing := mount(t)
	tmp, err := os.CreateTemp(mnt, "x-*") // O_EXCL
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tmp.Write([]byte("kept")); err != nil {
		t.Fatal(err)
	}
	tmp.Close()
	if err := os.Rename(tmp.Name(), filepath.Join(mnt, "x")); err != nil {
		t.Fatal(err)
	}
	if got := content(t, filepath.Join(mnt, "x")); string(got) != "kept" {
		t.Fatalf("renamed file through the mount: %q", got)
	}
	if got := content(t, filepath.Join(backing, "x")); len(got) != 0 {
		t.Fatalf("renamed file in the backing folder before a sync: %q", got)
	}
	if err := f.SyncAll(); err != nil {
		t.Fatal(err)
	}
	if f.Crash() != 0 {
		t.Error("data left unsynced after SyncAll")
	}
	if got := content(t, filepath.Join(backing, "x")); string(got) != "kept" {
		t.Fatalf("renamed file after SyncAll: %q", got)
	}
}
