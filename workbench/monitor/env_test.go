package monitor

import (
	"context"
	"testing"
	"time"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/workbench/plangraph"
)

// A real streaming job over datagen: the job list sees it running with
// rows flowing, the plan metrics see the aggregate, and cancelling it
// from the list ends it as CANCELED.
func TestJobsWithRealJob(t *testing.T) {
	env := table.MustCreate(table.InStreamingMode())
	if _, err := env.ExecuteSQL(`CREATE TABLE gen (k INT, v DOUBLE) WITH ('connector' = 'datagen', 'rows-per-second' = '2000',
		'fields.k.min' = '1', 'fields.k.max' = '5')`); err != nil {
		t.Fatal(err)
	}
	res, err := env.ExecuteSQL("SELECT k, COUNT(*) AS n FROM gen GROUP BY k")
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	drained := make(chan struct{})
	go func() {
		for it.Next() {
		}
		it.Close()
		close(drained)
	}()
	jc := res.GetJobClient()
	g := plangraph.FromPlan(true, jc.Plan())
	pm := NewPlanMetrics(g)
	jobs := NewJobs()
	// sample with the real clock until rows have reached the sink
	var row JobRow
	testwait.Poll(20*time.Second, func() bool {
		now := time.Now()
		jobs.Update(now, SessionJobs(env))
		pm.Sample(now, jc.NodeMetrics)
		row = jobs.Rows()[0]
		return row.RowsOut > 0
	})
	if row.Status != table.JobRunning || row.RowsOut == 0 || row.Kind != "query" || row.ID != jc.JobID() {
		t.Fatalf("row %+v", row)
	}
	found := false
	for _, n := range g.Nodes {
		if n.Op == "GroupAggregate" {
			v := pm.Node(n.ID)
			found = v.Present && v.RecordsIn > 0 && len(v.Lines) == MetricLines
		}
	}
	if !found {
		t.Error("no metrics for the aggregate")
	}
	if err := jobs.Cancel(jc.JobID()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	jc.Wait(ctx)
	changes := jobs.Update(time.Now(), SessionJobs(env))
	if len(changes) != 1 || changes[0].To != table.JobCanceled {
		t.Errorf("changes %+v", changes)
	}
	<-drained
}
