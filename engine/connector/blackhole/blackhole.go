// Package blackhole implements Flink's 'blackhole' connector: a sink that
// accepts rows of every kind and discards them (it only counts them), for
// benchmarks and for running a query for its side effects.
package blackhole

import (
	"context"
	"sync/atomic"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Identifier is the 'connector' value of this connector.
const Identifier = "blackhole"

func init() { connector.Register(Factory{}) }

// Factory creates blackhole sinks.
type Factory struct{}

// Identifier returns "blackhole".
func (Factory) Identifier() string { return Identifier }

// Options is empty: blackhole has no options besides 'connector'.
func (Factory) Options() []connector.Option { return nil }

// CreateSink rejects any option besides 'connector'.
func (f Factory) CreateSink(ctx *connector.Context) (connector.Sink, error) {
	if err := connector.ValidateOptions(ctx, nil); err != nil {
		return nil, err
	}
	return &Sink{}, nil
}

// Sink discards rows, counting them.
type Sink struct{ rows atomic.Int64 }

// Rows is the number of rows written (and committed or not) so far.
func (s *Sink) Rows() int64 { return s.rows.Load() }

// ChangelogMode accepts every row kind but -U (Flink's BlackHoleSink).
func (s *Sink) ChangelogMode(requested types.ChangelogMode) types.ChangelogMode {
	// every kind but -U, as Flink's BlackHoleSink: updates arrive as
	// upserts when the query can produce them so
	var kinds []types.RowKind
	for _, k := range requested.Kinds() {
		if k != types.UpdateBefore {
			kinds = append(kinds, k)
		}
	}
	return types.ChangelogModeOf(kinds...)
}

// Open starts a writer.
func (s *Sink) Open(ctx context.Context, spec connector.WriteSpec, index int) (connector.Writer, error) {
	return writer{s}, nil
}

type writer struct{ s *Sink }

func (w writer) Write(ctx context.Context, b *types.Batch) error {
	w.s.rows.Add(int64(b.Len))
	return ctx.Err()
}
func (w writer) Commit() error { return nil }
func (w writer) Abort()        {}
