package jobs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Blobs are the inputs and outputs of jobs too large for a spec (pictures,
// reconstructions), kept by content address in a JetStream object store: a
// job carries the address ("sha256:HEX") instead of a path, the worker
// fetches the bytes, and a result names the blobs it put. A job never makes
// a worker read or write a file the submitter names.
const (
	BlobBucket = "TESSERA_BLOBS"
	// MaxBlobBytes bounds one blob; MaxBlobStoreBytes the bucket, whose
	// blobs expire after BlobTTL (the jobs that name them are over by
	// then).
	MaxBlobBytes      = 64 << 20
	MaxBlobStoreBytes = 4 << 30
	BlobTTL           = 24 * time.Hour
)

// ErrBlob reports a blob that is missing, too large, or whose bytes do not
// match its address.
var ErrBlob = errors.New("jobs: blob")

// Blobs stores and fetches content-addressed bytes (a *Client is one).
type Blobs interface {
	PutBlob(ctx context.Context, data []byte) (string, error)
	GetBlob(ctx context.Context, addr string) ([]byte, error)
}

// BlobAddress is the content address of data: "sha256:" and the hex digest.
func BlobAddress(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (c *Client) blobStore(ctx context.Context) (jetstream.ObjectStore, error) {
	c.blobMu.Lock()
	defer c.blobMu.Unlock()
	if c.blobs != nil {
		return c.blobs, nil
	}
	st, err := c.js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket:   BlobBucket,
		Storage:  jetstream.FileStorage,
		Replicas: max(c.o.replicas, 1),
		MaxBytes: MaxBlobStoreBytes,
		TTL:      BlobTTL,
	})
	if errors.Is(err, jetstream.ErrBucketExists) {
		st, err = c.js.ObjectStore(ctx, BlobBucket)
	}
	if err != nil {
		return nil, fmt.Errorf("jobs: the blob store: %w", err)
	}
	c.blobs = st
	return st, nil
}

// PutBlob stores data (at most MaxBlobBytes) and returns its address; a
// blob already stored is not sent again.
func (c *Client) PutBlob(ctx context.Context, data []byte) (string, error) {
	if len(data) > MaxBlobBytes {
		return "", fmt.Errorf("%w: %d bytes, more than %d MiB", ErrBlob, len(data), MaxBlobBytes>>20)
	}
	st, err := c.blobStore(ctx)
	if err != nil {
		return "", err
	}
	addr := BlobAddress(data)
	name := strings.TrimPrefix(addr, "sha256:")
	if info, err := st.GetInfo(ctx, name); err == nil && info.Size == uint64(len(data)) {
		return addr, nil
	}
	if _, err := st.PutBytes(ctx, name, data); err != nil {
		return "", fmt.Errorf("jobs: storing a blob: %w", err)
	}
	return addr, nil
}

// GetBlob fetches the blob at addr and checks its bytes against it.
func (c *Client) GetBlob(ctx context.Context, addr string) ([]byte, error) {
	name, ok := strings.CutPrefix(addr, "sha256:")
	if !ok || len(name) != 2*sha256.Size || strings.Trim(name, "0123456789abcdef") != "" {
		return nil, fmt.Errorf("%w: bad address %q", ErrBlob, addr)
	}
	st, err := c.blobStore(ctx)
	if err != nil {
		return nil, err
	}
	info, err := st.GetInfo(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrBlob, addr, err)
	}
	if info.Size > MaxBlobBytes {
		return nil, fmt.Errorf("%w %s: %d bytes, more than %d MiB", ErrBlob, addr, info.Size, MaxBlobBytes>>20)
	}
	data, err := st.GetBytes(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrBlob, addr, err)
	}
	if BlobAddress(data) != addr {
		return nil, fmt.Errorf("%w %s: the bytes do not match the address", ErrBlob, addr)
	}
	return data, nil
}

type blobsKey struct{}

// WithBlobs returns ctx carrying b: the context of a job on a worker
// carries its client's blob store (RunWorkers).
func WithBlobs(ctx context.Context, b Blobs) context.Context {
	return context.WithValue(ctx, blobsKey{}, b)
}

// BlobsFrom returns the blob store ctx carries, if any.
func BlobsFrom(ctx context.Context) (Blobs, bool) {
	b, ok := ctx.Value(blobsKey{}).(Blobs)
	return b, ok
}
