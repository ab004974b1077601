package planview

import "testing"

// A cancelled job's plan keeps each node's last watermark (the
// workbench's TestCanceledJobPlanShowsNoWatermarkEnd runs one).
func TestWatermarkLineOfACanceledJob(t *testing.T) {
	pg := &Graph{}
	if got := pg.watermarkLine(0, "wm 12:00:01.000 · state 3 keys"); got != "wm 12:00:01.000 · state 3 keys" {
		t.Errorf("running: %q", got)
	}
	pg.canceled = true
	if got := pg.watermarkLine(0, "wm end · state 3 keys"); got != "wm 12:00:01.000 (cancelled) · state 3 keys" {
		t.Errorf("cancelled: %q", got)
	}
	if got := pg.watermarkLine(1, "wm end"); got != "wm – (cancelled)" {
		t.Errorf("cancelled before any watermark: %q", got)
	}
	if got := pg.watermarkLine(1, "rows 5 · late 0"); got != "rows 5 · late 0" {
		t.Errorf("other line: %q", got)
	}
}
