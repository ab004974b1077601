//go:build !linux

package runtime

// physicalMemory is unknown here: the default job memory limit is off.
func physicalMemory() int64 { return 0 }
