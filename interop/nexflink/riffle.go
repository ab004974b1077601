package nexflink

import (
	"context"
	"time"

	"github.com/riffle-sql/riffle/nexmark"
)

// RunRiffle runs query q over the topic in this process (nexmark.RunQuery
// with the table datagen over the topic) at the given parallelism; CPU is
// this process's user + system time over the INSERT (getrusage), so the
// process should be doing nothing else. The benchmark command runs it in a
// child process of its own and reports that process's whole CPU time.
func RunRiffle(ctx context.Context, q nexmark.Query, bootstrap, topic string, events int64, parallelism int) Measure {
	var views []string
	for _, v := range nexmark.ViewsDDL() {
		views = append(views, Quoted(v))
	}
	r := nexmark.RunQuery(ctx, QuotedQuery(q), nexmark.Options{
		Events: events, Parallelism: parallelism, Rate: Rate, BaseTime: BaseTime,
		Source: SourceDDL(bootstrap, topic), Views: views,
	})
	return Measure{Engine: "Riffle", Query: q.Name, Parallelism: parallelism, Events: events,
		SourceRows: r.SourceRows, SinkRows: r.OutputRows,
		Wall: time.Duration(r.Seconds * float64(time.Second)), CPU: time.Duration(r.CPUSeconds * float64(time.Second)),
		Err: r.Err}
}
