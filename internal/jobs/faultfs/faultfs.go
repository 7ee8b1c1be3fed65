package faultfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
	"golang.org/x/sys/unix"
)

const pageSize = 4096

// FS is a mounted lazy file system (Mount).
type FS struct {
	backing, mnt string
	server       *fuse.Server

	mu    sync.Mutex
	files map[uint64]*state // by backing inode: the files with unsynced data
}

// state is a file's unsynced data: whole pages, and the size the file
// has with them.
type state struct {
	pages   map[int64]*[pageSize]byte
	size    int64
	pending int64 // bytes written since the last sync
}

// Mount serves the folder backing at mnt (both must exist). Unmount it
// when done.
func Mount(mnt, backing string) (*FS, error) {
	if _, err := os.Stat("/dev/fuse"); err != nil {
		return nil, fmt.Errorf("faultfs: no FUSE here: %w", err)
	}
	backing, err := filepath.Abs(backing)
	if err != nil {
		return nil, err
	}
	root, err := fs.NewLoopbackRoot(backing)
	if err != nil {
		return nil, fmt.Errorf("faultfs: %w", err)
	}
	f := &FS{backing: backing, mnt: mnt, files: map[uint64]*state{}}
	lroot := &node{LoopbackNode: root.(*fs.LoopbackNode), fs: f}
	zero := time.Duration(0)
	f.server, err = fs.Mount(mnt, lroot, &fs.Options{
		EntryTimeout: &zero,
		AttrTimeout:  &zero,
		MountOptions: fuse.MountOptions{
			FsName:            "faultfs",
			Name:              "faultfs",
			DirectMountStrict: true, // mount(2) itself: no fusermount needed
		},
	})
	if err != nil {
		return nil, fmt.Errorf("faultfs: mounting %s: %w", mnt, err)
	}
	return f, nil
}

// Unmount unmounts the file system (retrying while it is busy: the last
// handles of a killed process are released asynchronously). Unsynced data
// still held is dropped: call SyncAll first to keep it.
func (f *FS) Unmount() error {
	var err error
	for range 50 {
		if err = f.server.Unmount(); err == nil {
			f.server.Wait()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("faultfs: unmounting %s: %w", f.mnt, err)
}

// Crash discards every unsynced byte, as a power cut would, and returns
// how many bytes written since their file's last sync were lost. Read
// the files from the backing folder afterwards (the kernel may still
// cache pages of the mount).
func (f *FS) Crash() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.pendingLocked()
	clear(f.files)
	return n
}

// Unsynced returns the number of bytes written and not synced yet, over
// all files.
func (f *FS) Unsynced() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pendingLocked()
}

func (f *FS) pendingLocked() int64 {
	var n int64
	for _, s := range f.files {
		n += s.pending
	}
	return n
}

// SyncAll writes every file's unsynced data through and syncs it.
func (f *FS) SyncAll() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var errs []error
	for ino, s := range f.files {
		p, err := f.pathOf(ino)
		if err == nil {
			var file *os.File
			if file, err = os.OpenFile(p, os.O_RDWR, 0); err == nil {
				err = f.flushLocked(ino, s, file)
				file.Close()
			}
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// pathOf finds the backing file of an inode (for SyncAll, which has no
// handle): a walk of the backing folder.
func (f *FS) pathOf(ino uint64) (string, error) {
	found := ""
	filepath.WalkDir(f.backing, func(p string, d os.DirEntry, err error) error {
		if err != nil || found != "" {
			return nil
		}
		var st syscall.Stat_t
		if syscall.Lstat(p, &st) == nil && st.Ino == ino && st.Mode&syscall.S_IFMT == syscall.S_IFREG {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	if found == "" {
		return "", fmt.Errorf("faultfs: inode %d has no name left", ino)
	}
	return found, nil
}

// load returns the state of ino, making it from the backing file (its
// size) on the first unsynced write. f.mu is held.
func (f *FS) load(ino uint64, file *os.File) (*state, error) {
	if s := f.files[ino]; s != nil {
		return s, nil
	}
	fi, err := file.Stat()
	if err != nil {
		return nil, err
	}
	s := &state{pages: map[int64]*[pageSize]byte{}, size: fi.Size()}
	f.files[ino] = s
	return s, nil
}

// write applies data at off to ino's unsynced pages.
func (f *FS) write(ino uint64, file *os.File, data []byte, off int64) error {
	s, err := f.load(ino, file)
	if err != nil {
		return err
	}
	for len(data) > 0 {
		p := off / pageSize
		pg := s.pages[p]
		if pg == nil {
			pg = new([pageSize]byte)
			// The page's synced bytes, within the file's size (a short
			// read leaves zeros).
			if start := p * pageSize; start < s.size {
				file.ReadAt(pg[:min(pageSize, s.size-start)], start)
			}
			s.pages[p] = pg
		}
		n := copy(pg[off-p*pageSize:], data)
		data, off = data[n:], off+int64(n)
		s.pending += int64(n)
		s.size = max(s.size, off)
	}
	return nil
}

// read fills dest from off: the backing file, then the unsynced pages
// over it, within the size the file has with them.
func (f *FS) read(ino uint64, file *os.File, dest []byte, off int64) ([]byte, error) {
	s := f.files[ino]
	if s == nil {
		n, err := file.ReadAt(dest, off)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return dest[:n], nil
	}
	if off >= s.size {
		return dest[:0], nil
	}
	dest = dest[:min(int64(len(dest)), s.size-off)]
	clear(dest)
	file.ReadAt(dest, off)
	for p := off / pageSize; p*pageSize < off+int64(len(dest)); p++ {
		if pg := s.pages[p]; pg != nil {
			start := p * pageSize
			lo, hi := max(start, off), min(start+pageSize, off+int64(len(dest)))
			copy(dest[lo-off:hi-off], pg[lo-start:hi-start])
		}
	}
	return dest, nil
}

// flushLocked writes s through to file, sets its size, fsyncs it and
// forgets s.
func (f *FS) flushLocked(ino uint64, s *state, file *os.File) error {
	for _, p := range slices.Sorted(maps.Keys(s.pages)) {
		start := p * pageSize
		if start >= s.size {
			continue
		}
		if _, err := file.WriteAt(s.pages[p][:min(pageSize, s.size-start)], start); err != nil {
			return err
		}
	}
	if err := file.Truncate(s.size); err != nil {
		return err
	}
	if err := file.Sync(); err != nil {
		return err
	}
	delete(f.files, ino)
	return nil
}

// truncated applies a new size that went straight to the backing file:
// pages beyond it are dropped, the last one's tail zeroed.
func (f *FS) truncated(ino uint64, size int64) {
	s := f.files[ino]
	if s == nil {
		return
	}
	for p, pg := range s.pages {
		start := p * pageSize
		switch {
		case start >= size:
			delete(s.pages, p)
		case start+pageSize > size:
			clear(pg[size-start:])
		}
	}
	s.size = size
}

// node is a loopback node whose files keep their writes until synced.
type node struct {
	*fs.LoopbackNode
	fs *FS
}

var (
	_ fs.NodeWrapChilder    = (*node)(nil)
	_ fs.NodeOpener         = (*node)(nil)
	_ fs.NodeCreater        = (*node)(nil)
	_ fs.NodeGetattrer      = (*node)(nil)
	_ fs.NodeSetattrer      = (*node)(nil)
	_ fs.NodeStatxer        = (*node)(nil)
	_ fs.NodeUnlinker       = (*node)(nil)
	_ fs.NodeRenamer        = (*node)(nil)
	_ fs.NodeTmpfiler       = (*node)(nil)
	_ fs.NodeCopyFileRanger = (*node)(nil)
)

func (n *node) WrapChild(ctx context.Context, ops fs.InodeEmbedder) fs.InodeEmbedder {
	return &node{LoopbackNode: ops.(*fs.LoopbackNode), fs: n.fs}
}

func (n *node) backingPath() string {
	return filepath.Join(n.RootData.Path, n.Path(nil))
}

func (n *node) ino() uint64 { return n.StableAttr().Ino }

// openFlags are the flags of the backing file: read and write (a page is
// read before it is written), without O_APPEND (the kernel gives the
// offsets) and without O_SYNC (handled here).
func openFlags(flags uint32) int {
	return int(flags&^(syscall.O_ACCMODE|syscall.O_APPEND|syscall.O_SYNC|syscall.O_DSYNC|fuse.FMODE_EXEC)) | syscall.O_RDWR
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	file, err := os.OpenFile(n.backingPath(), openFlags(flags), 0)
	if err != nil {
		return nil, 0, fs.ToErrno(err)
	}
	if flags&syscall.O_TRUNC != 0 {
		n.fs.mu.Lock()
		n.fs.truncated(n.ino(), 0)
		n.fs.mu.Unlock()
	}
	return &handle{n: n, file: file, sync: flags&syscall.O_DSYNC != 0}, 0, 0
}

func (n *node) Create(ctx context.Context, name string, flags, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	ch, lf, _, errno := n.LoopbackNode.Create(ctx, name, uint32(openFlags(flags)), mode, out)
	if errno != 0 {
		return nil, nil, 0, errno
	}
	// Reopen the file with a handle of ours.
	if r, ok := lf.(fs.FileReleaser); ok {
		r.Release(ctx)
	}
	c := ch.Operations().(*node)
	file, err := os.OpenFile(filepath.Join(n.backingPath(), name), openFlags(flags&^(syscall.O_CREAT|syscall.O_EXCL|syscall.O_TRUNC)), 0)
	if err != nil {
		return nil, nil, 0, fs.ToErrno(err)
	}
	n.fs.mu.Lock()
	delete(n.fs.files, c.ino()) // a new file: nothing unsynced (an inode number reused)
	n.fs.mu.Unlock()
	return ch, &handle{n: c, file: file, sync: flags&syscall.O_DSYNC != 0}, 0, 0
}

// sized sets the size seen through the mount to the unsynced one.
func (n *node) sized(size *uint64, blocks *uint64) {
	n.fs.mu.Lock()
	defer n.fs.mu.Unlock()
	if s := n.fs.files[n.ino()]; s != nil {
		*size = uint64(s.size)
		*blocks = (uint64(s.size) + 511) / 512
	}
}

func (n *node) Getattr(ctx context.Context, f fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	if h, ok := f.(*handle); ok {
		fi, err := h.file.Stat()
		if err != nil {
			return fs.ToErrno(err)
		}
		out.FromStat(fi.Sys().(*syscall.Stat_t))
	} else if errno := n.LoopbackNode.Getattr(ctx, nil, out); errno != 0 {
		return errno
	}
	n.sized(&out.Size, &out.Blocks)
	return 0
}

func (n *node) Statx(ctx context.Context, f fs.FileHandle, flags, mask uint32, out *fuse.StatxOut) syscall.Errno {
	if errno := n.LoopbackNode.Statx(ctx, nil, flags, mask, out); errno != 0 {
		return errno
	}
	n.sized(&out.Size, &out.Blocks)
	return 0
}

func (n *node) Setattr(ctx context.Context, f fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	if errno := n.LoopbackNode.Setattr(ctx, nil, in, out); errno != 0 {
		return errno
	}
	if sz, ok := in.GetSize(); ok {
		n.fs.mu.Lock()
		n.fs.truncated(n.ino(), int64(sz))
		n.fs.mu.Unlock()
	}
	n.sized(&out.Size, &out.Blocks)
	return 0
}

// forget drops the unsynced data of the file at p if this name was its
// last.
func (n *node) forget(p string) {
	var st syscall.Stat_t
	if syscall.Lstat(p, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG && st.Nlink <= 1 {
		n.fs.mu.Lock()
		delete(n.fs.files, st.Ino)
		n.fs.mu.Unlock()
	}
}

func (n *node) Unlink(ctx context.Context, name string) syscall.Errno {
	n.forget(filepath.Join(n.backingPath(), name))
	return n.LoopbackNode.Unlink(ctx, name)
}

func (n *node) Rename(ctx context.Context, name string, newParent fs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	if flags&unix.RENAME_EXCHANGE == 0 {
		n.forget(filepath.Join(n.RootData.Path, newParent.EmbeddedInode().Path(nil), newName))
	}
	return n.LoopbackNode.Rename(ctx, name, newParent, newName, flags)
}

func (n *node) Tmpfile(ctx context.Context, flags, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	return nil, nil, 0, syscall.EOPNOTSUPP
}

func (n *node) CopyFileRange(ctx context.Context, fhIn fs.FileHandle, offIn uint64, out *fs.Inode, fhOut fs.FileHandle, offOut uint64, len uint64, flags uint64) (uint32, syscall.Errno) {
	return 0, syscall.EOPNOTSUPP
}

// handle is an open file: reads and writes go through the node's
// unsynced pages.
type handle struct {
	n    *node
	file *os.File
	sync bool // O_SYNC or O_DSYNC: written through at each write
}

var (
	_ fs.FileReader   = (*handle)(nil)
	_ fs.FileWriter   = (*handle)(nil)
	_ fs.FileFsyncer  = (*handle)(nil)
	_ fs.FileReleaser = (*handle)(nil)
)

func (h *handle) Read(ctx context.Context, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	h.n.fs.mu.Lock()
	defer h.n.fs.mu.Unlock()
	b, err := h.n.fs.read(h.n.ino(), h.file, dest, off)
	if err != nil {
		return nil, fs.ToErrno(err)
	}
	return fuse.ReadResultData(b), 0
}

func (h *handle) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
	f := h.n.fs
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.write(h.n.ino(), h.file, data, off); err != nil {
		return 0, fs.ToErrno(err)
	}
	if h.sync {
		if err := f.flushLocked(h.n.ino(), f.files[h.n.ino()], h.file); err != nil {
			return 0, fs.ToErrno(err)
		}
	}
	return uint32(len(data)), 0
}

// Fsync (fsync and fdatasync) writes the file's unsynced data through.
func (h *handle) Fsync(ctx context.Context, flags uint32) syscall.Errno {
	f := h.n.fs
	f.mu.Lock()
	defer f.mu.Unlock()
	if s := f.files[h.n.ino()]; s != nil {
		return fs.ToErrno(f.flushLocked(h.n.ino(), s, h.file))
	}
	return fs.ToErrno(h.file.Sync())
}

// Release closes the backing file; its unsynced data stays (closing
// syncs nothing).
func (h *handle) Release(ctx context.Context) syscall.Errno {
	return fs.ToErrno(h.file.Close())
}
