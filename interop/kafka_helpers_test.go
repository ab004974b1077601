//go:build interop

package interop

import "testing"

// kafkaRequire returns the running Kafka broker or fails the test: under
// the interop tag a missing broker is a failure, never a skip
// (scripts/interop.sh starts one; alone, start one with scripts/kafka.sh
// start).
func kafkaRequire(t testing.TB) Kafka {
	t.Helper()
	k, err := KafkaFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	return k
}
