package npuzzle

import (
	"syscall"
	"unsafe"
)

// hugePages asks the kernel to back a large table with huge pages, which
// cuts the TLB misses of random access; it is only advice.
func hugePages(s []uint64) {
	if len(s) < 1<<18 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*8)
	const page = 2 << 20
	off := (page - int(uintptr(unsafe.Pointer(&b[0]))%page)) % page
	if len(b)-off < page {
		return
	}
	_ = syscall.Madvise(b[off:off+(len(b)-off)/page*page], syscall.MADV_HUGEPAGE)
}
