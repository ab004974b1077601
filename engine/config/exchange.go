package config

import (
	"fmt"
	"strings"
)

// ExchangeMaxBytesPerChannel bounds the batches waiting in one channel
// between two tasks of a job, in bytes (a Riffle option; the default is
// '1 mb'). Flink bounds a channel by its network buffers, a fixed number
// of fixed-size segments (taskmanager.network.memory.buffers-per-channel,
// 2, and taskmanager.network.memory.floating-buffers-per-gate, 8, of
// taskmanager.memory.segment-size, 32 kb); Riffle's channels carry whole
// batches of up to 4,096 rows, so they are bounded by a count (16 batches)
// and by this many bytes of the batches' Arrow buffers: a producer waits
// while a batch would take a channel past it (back-pressure), and a batch
// larger than the bound passes alone into an empty channel. A source's
// hand-off to its task has the same bound. '0' bounds by count only.
var ExchangeMaxBytesPerChannel = Register(Option{Key: "riffle.exchange.max-bytes-per-channel", Default: "1 mb", Kind: "string",
	Description: "The most bytes of batches that wait in one channel between two tasks (a memory size such as '1 mb' or '256 kb'; '0' for no bound in bytes, 16 batches only); a producer waits while a batch would take the channel past it, and a larger batch passes alone.",
	Check: func(v string) error {
		_, err := ParseExchangeMaxBytesPerChannel(v)
		return err
	}})

// ParseExchangeMaxBytesPerChannel reads a value of
// riffle.exchange.max-bytes-per-channel: the bound in bytes, 0 for none.
// An empty value is the default, 1 MiB.
func ParseExchangeMaxBytesPerChannel(v string) (int64, error) {
	if strings.TrimSpace(v) == "" {
		return 1 << 20, nil
	}
	n, err := ParseMemorySize(v)
	if err != nil {
		return 0, fmt.Errorf("Could not parse value '%s' for key 'riffle.exchange.max-bytes-per-channel' (expected a memory size such as '1 mb' or '256 kb', or '0' for no bound in bytes): %v.", v, err)
	}
	return n, nil
}
