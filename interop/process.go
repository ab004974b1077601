package interop

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// PIDFromFile returns the process ID a server's PID file holds (the
// scripts' run directories keep one per process), or 0 when the file is
// missing or unreadable.
func PIDFromFile(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// ProcessCPU is the user + system CPU time that process pid has used so
// far, all its threads included, from /proc/PID/stat (Linux, in USER_HZ
// ticks of 10 ms); 0 when pid ≤ 0 or the process is unknown.
func ProcessCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	// The command name in parentheses may hold spaces: fields count after ')'.
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// clockTicks is USER_HZ, 100 on Linux.
const clockTicks = 100
