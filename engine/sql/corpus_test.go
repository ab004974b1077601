package sql

import "testing"

func TestCorpus(t *testing.T) {
	spans := corpus(t)
	if len(spans) < 300 {
		t.Errorf("corpus has only %d statements", len(spans))
	}
	for _, sp := range spans {
		checkRoundTrip(t, sp.Text)
	}
	t.Logf("%d statements parsed and round-tripped", len(spans))
}
