// Package jdbc implements Flink's 'jdbc' connector for PostgreSQL (on pgx)
// and MySQL/MariaDB (on go-sql-driver/mysql): a bounded scan with
// partitioned parallel reads and filter, projection and LIMIT pushdown, a
// lookup source for processing-time lookup joins with Flink's partial
// cache options, and a sink that upserts and deletes by the PRIMARY KEY
// (or appends without one) in buffered batches, one transaction each. See
// docs/jdbc.md for every option, the type mapping and the differences from
// Flink.
package jdbc

import (
	"github.com/riffle-sql/riffle/engine/connector"
)

// Factory is the 'jdbc' connector.
type Factory struct{}

// Identifier is "jdbc".
func (Factory) Identifier() string { return "jdbc" }

// Options lists the jdbc connector's options.
func (Factory) Options() []connector.Option { return jdbcOptions() }

// CreateSource validates the options and returns the table's source; it
// does not connect (the readers do, when the job starts).
func (Factory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	t, err := parseOptions(ctx)
	if err != nil {
		return nil, err
	}
	return newSource(t), nil
}

// CreateSink validates the options and returns the table's sink.
func (Factory) CreateSink(ctx *connector.Context) (connector.Sink, error) {
	t, err := parseOptions(ctx)
	if err != nil {
		return nil, err
	}
	return &Sink{t: t}, nil
}

func init() {
	connector.Register(Factory{})
}
