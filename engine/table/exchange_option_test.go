package table

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/runtime"
)

// riffle.exchange.max-bytes-per-channel reaches the jobs' configuration
// (1 MiB by default, '0' for count only) and SET refuses what is not a
// memory size.
func TestExchangeMaxBytesPerChannelOption(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if got := env.jobConfig().ChannelBytes; got != runtime.DefaultChannelBytes {
		t.Errorf("default: %d bytes, want %d", got, runtime.DefaultChannelBytes)
	}
	mustExec(t, env, "SET 'riffle.exchange.max-bytes-per-channel' = '256 kb'")
	if got := env.jobConfig().ChannelBytes; got != 256<<10 {
		t.Errorf("'256 kb': %d bytes", got)
	}
	mustExec(t, env, "SET 'riffle.exchange.max-bytes-per-channel' = '0'")
	if got := env.jobConfig().ChannelBytes; got >= 0 {
		t.Errorf("'0': %d, want a negative value (no byte bound)", got)
	}
	for _, v := range []string{"abc", "-1", "1 parsec"} {
		_, err := env.ExecuteSQL("SET 'riffle.exchange.max-bytes-per-channel' = '" + v + "'")
		if err == nil || !strings.Contains(err.Error(), "riffle.exchange.max-bytes-per-channel") {
			t.Errorf("SET to %q: %v, want an error naming the key", v, err)
		}
	}
	// a query runs under a small bound
	mustExec(t, env, "SET 'riffle.exchange.max-bytes-per-channel' = '1 kb'")
	res, err := env.ExecuteSQL("SELECT COUNT(*) FROM (VALUES (1), (2), (3)) AS t(x)")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.PrintTo(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| +U |                    3 |") {
		t.Errorf("got\n%s", b.String())
	}
}
