package filesystem

import "syscall"

// mapPopulate maps a range's pages in the mmap call (Linux), rather than
// a fault per few pages as they are first read.
const mapPopulate = syscall.MAP_POPULATE
