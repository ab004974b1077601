package ui

import (
	"testing"
	"time"
)

// Watermarks in the plan and the jobs panel are shown in the session's
// zone, a custom offset id included.
func TestEmbeddedZoneFollowsOffsetIDs(t *testing.T) {
	h := newHarness(t)
	if _, err := h.wb.env.ExecuteSQL("SET 'table.local-time-zone' = 'GMT+08:00'"); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
	if _, off := at.In(h.wb.embeddedZone()).Zone(); off != 8*3600 {
		t.Errorf("offset %d s, want 8 h", off)
	}
}
