package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
)

// A cancelled job's plan keeps each node's last watermark instead of
// saying "wm end", and the Jobs panel draws CANCELED in the warning colour
// rather than the disabled grey (issue 21).
func TestCanceledJobPlanShowsNoWatermarkEnd(t *testing.T) {
	h := newHarness(t)
	h.newTab(readingsDDL + perSecond + ";")
	h.runAll()
	if len(h.wb.results) == 0 {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	rt := h.wb.results[len(h.wb.results)-1]
	p := rt.mon.plan
	if p == nil {
		t.Fatal("no plan view")
	}
	rt.showView(rt.mon.planItem)
	wms := func() string {
		var out []string
		for i := range p.g.Nodes {
			for _, l := range p.graph.texts(i) {
				if strings.HasPrefix(l, "wm ") {
					out = append(out, l)
				}
			}
		}
		return strings.Join(out, "\n")
	}
	base := time.Now().Add(time.Hour)
	h.until("a watermark in the plan", func() bool {
		base = base.Add(2 * time.Second)
		p.tick(base, true)
		return strings.Contains(wms(), "wm 2") || strings.Contains(wms(), ":")
	})
	rt.stop()
	h.waitDone(rt)
	h.until("the job to end", func() bool { return rt.job.GetJobStatus().IsTerminal() })
	if st := rt.job.GetJobStatus(); st != table.JobCanceled {
		t.Fatalf("job %s, want CANCELED", st)
	}
	p.tick(base.Add(time.Hour), true)
	if got := wms(); strings.Contains(got, "wm end") || !strings.Contains(got, "(cancelled)") && !strings.Contains(got, ":") {
		t.Errorf("a cancelled job's watermarks:\n%s", got)
	}
	if imp := statusImportance(table.JobCanceled); imp != widget.WarningImportance {
		t.Errorf("CANCELED drawn with importance %v", imp)
	}
}

func TestWatermarkLineOfACanceledJob(t *testing.T) {
	pg := &planGraph{}
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
