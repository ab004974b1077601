package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/ui/jobs"
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
		for i := range p.Plan().Nodes {
			for _, l := range p.Graph().Texts(i) {
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
		p.Tick(base, true)
		return strings.Contains(wms(), "wm 2") || strings.Contains(wms(), ":")
	})
	rt.Stop()
	h.waitDone(rt)
	h.until("the job to end", func() bool { return rt.Job.Status().IsTerminal() })
	if st := rt.Job.Status(); st != table.JobCanceled {
		t.Fatalf("job %s, want CANCELED", st)
	}
	p.Tick(base.Add(time.Hour), true)
	if got := wms(); strings.Contains(got, "wm end") || !strings.Contains(got, "(cancelled)") && !strings.Contains(got, ":") {
		t.Errorf("a cancelled job's watermarks:\n%s", got)
	}
	if imp := jobs.StatusImportance(table.JobCanceled); imp != widget.WarningImportance {
		t.Errorf("CANCELED drawn with importance %v", imp)
	}
}
