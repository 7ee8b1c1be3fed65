// Package faultfs is a test-support file system that loses what was not
// synced: a FUSE passthrough over a backing folder in which written data
// stays in this process's memory until the file is synced, the way a
// kernel's page cache holds it until fsync. Crash drops every unsynced
// byte at once, which is what a power cut or a kernel crash does to a
// file system; the tests of internal/jobs run the JetStream server on it
// to show that what the server acknowledged was on the disk.
//
// The model, per file (per backing inode):
//
//   - Write keeps the bytes in memory, in pages of 4 KiB; reads through
//     the mount see them (read-your-writes), and the file's size as seen
//     through the mount includes them.
//   - fsync and fdatasync on any open handle of the file write its
//     unsynced pages to the backing file, set its size and fsync it. A
//     file opened with O_SYNC or O_DSYNC is written through and synced at
//     each write. Closing a file syncs nothing.
//   - Crash discards every unsynced byte of every file; SyncAll writes
//     them all through (a sync(2), or the background sync that a system
//     would do given time).
//   - Metadata goes straight to the backing folder, synced or not:
//     create, mkdir, rename, link, unlink, rmdir, chmod and truncate
//     (ftruncate, O_TRUNC) take effect there at once. So the layer models
//     the loss of unsynced file data, as LazyFS does, not the loss of
//     unsynced directory entries or sizes: a file created and renamed
//     but never synced survives a Crash, empty or short; a file truncated
//     and not synced keeps its new size (with zeros where unsynced data
//     was).
//
// Not modelled: torn writes within a page, reordering of synced writes,
// a disk that lies about fsync, fallocate, copy_file_range and O_TMPFILE
// (refused with EOPNOTSUPP), and the unsynced data of a file unlinked
// while open (dropped with its last name). Mount needs /dev/fuse and the
// right to mount (root, or CAP_SYS_ADMIN: it calls mount(2) itself, no
// fusermount); tests skip when it is refused.
//
//	f, err := faultfs.Mount(mnt, backing)
//	... // run the program under test on mnt, kill it
//	dropped := f.Crash() // unsynced bytes lost
//	f.Unmount()
//	... // recover from backing
package faultfs
