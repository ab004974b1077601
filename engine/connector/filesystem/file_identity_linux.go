package filesystem

import "syscall"

// statusChangeTime is st's status change time in nanoseconds since 1970.
func statusChangeTime(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
