package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"tessera/imageio"
	"tessera/internal/jobs"
)

// BlobRemote is a Remote that also keeps blobs (a *jobs.Client): the
// benches whose jobs are pictures send them by content address, and their
// workers return the pictures they make the same way. A job never names a
// file on the worker.
type BlobRemote interface {
	Remote
	jobs.Blobs
}

// pictureStore returns the blob store the jobs of a bench of files read
// their pictures from, and each file's address there: with remote its
// blob store, the files put in it; without, a store of this process
// that reads the files themselves (their paths are their addresses, which
// never travel) and keeps the outputs in memory until they are written.
func pictureStore(ctx context.Context, remote Remote, files []string) (jobs.Blobs, map[string]string, error) {
	addrs := make(map[string]string, len(files))
	if remote == nil {
		for _, f := range files {
			addrs[f] = f
		}
		return &localBlobs{mem: map[string][]byte{}}, addrs, nil
	}
	b, ok := remote.(BlobRemote)
	if !ok {
		return nil, nil, errors.New("bench: this job system keeps no blobs, so it cannot send pictures")
	}
	for _, f := range files {
		if _, ok := addrs[f]; ok {
			continue
		}
		data, err := imageio.ReadFileContext(ctx, f, imageio.Options{})
		if err != nil {
			return nil, nil, err
		}
		if addrs[f], err = b.PutBlob(ctx, data); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	return b, addrs, nil
}

// localBlobs is an in-process bench's store: GetBlob reads a file (its
// address is its path), PutBlob keeps the data until GetBlob takes it.
type localBlobs struct {
	mu  sync.Mutex
	mem map[string][]byte
	n   int
}

func (l *localBlobs) PutBlob(_ context.Context, data []byte) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	addr := "mem:" + strconv.Itoa(l.n)
	l.mem[addr] = data
	return addr, nil
}

func (l *localBlobs) GetBlob(ctx context.Context, addr string) ([]byte, error) {
	l.mu.Lock()
	data, ok := l.mem[addr]
	delete(l.mem, addr)
	l.mu.Unlock()
	if ok {
		return data, nil
	}
	return imageio.ReadFileContext(ctx, addr, imageio.Options{})
}

// writeOutputs writes the pictures a job returned (blob addresses, ""
// for none) to the files name(i).
func writeOutputs(ctx context.Context, store jobs.Blobs, addrs []string, name func(i int) string) error {
	for i, addr := range addrs {
		if addr == "" {
			continue
		}
		data, err := store.GetBlob(ctx, addr)
		if err != nil {
			return err
		}
		if err := WriteFileAtomic(name(i), func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
	}
	return nil
}
