package table

import (
	"strings"
	"testing"
)

// runDistinctKeys runs a streaming GROUP BY over n distinct keys (its
// GroupAggregate holds a state entry per key) under the memory limit
// limit, and returns the last result row and the job's error.
func runDistinctKeys(t *testing.T, n, limit string) (string, error) {
	t.Helper()
	env := MustCreate(InStreamingMode())
	mustExec(t, env, "CREATE TABLE src (k BIGINT) WITH ('connector'='datagen', 'fields.k.kind'='sequence', 'fields.k.start'='1', 'fields.k.end'='"+n+"')")
	if limit != "" {
		mustExec(t, env, "SET 'riffle.job.memory-limit' = '"+limit+"'")
	}
	res, err := env.ExecuteSQL("SELECT COUNT(*) FROM (SELECT k, COUNT(*) AS c FROM src GROUP BY k)")
	if err != nil {
		return "", err
	}
	it, err := res.Collect()
	if err != nil {
		return "", err
	}
	defer it.Close()
	last := ""
	for it.Next() {
		last = it.Row().String()
	}
	return last, it.Err()
}

// A job whose operators' state grows past riffle.job.memory-limit fails
// with "memory limit exceeded" naming the GroupAggregate that holds it;
// under the limit (or with the limit off) the same query finishes.
func TestJobMemoryLimit(t *testing.T) {
	_, err := runDistinctKeys(t, "20000", "256 kb")
	if err == nil {
		t.Fatal("a GROUP BY over 20,000 keys finished under a 256 KB memory limit")
	}
	msg := err.Error()
	t.Log(msg)
	for _, want := range []string{"memory limit exceeded: operator GroupAggregate(groupBy=[k]", "of state", "the job's limit is 0.25 MB (262144 bytes) (option 'riffle.job.memory-limit')"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	for _, limit := range []string{"1 gb", "0", ""} {
		last, err := runDistinctKeys(t, "20000", limit)
		if err != nil {
			t.Fatalf("limit %q: %v", limit, err)
		}
		if !strings.HasSuffix(last, "[20000]") {
			t.Errorf("limit %q: last row %s", limit, last)
		}
	}
}

// A value that is not a memory size is refused by SET with the key named.
func TestJobMemoryLimitChecked(t *testing.T) {
	env := MustCreate(InStreamingMode())
	for _, v := range []string{"lots", "-1 mb", "12 parsecs"} {
		_, err := env.ExecuteSQL("SET 'riffle.job.memory-limit' = '" + v + "'")
		if err == nil || !strings.Contains(err.Error(), "riffle.job.memory-limit") {
			t.Errorf("SET %q: %v", v, err)
		}
	}
	for _, v := range []string{"512 mb", "2gb", "0", "default"} {
		if _, err := env.ExecuteSQL("SET 'riffle.job.memory-limit' = '" + v + "'"); err != nil {
			t.Errorf("SET %q: %v", v, err)
		}
	}
}
