package session

import (
	"context"
	"testing"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestBatchesEmbedded reads a streaming query's changelog through the
// runner and Batches.
func TestBatchesEmbedded(t *testing.T) {
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	eng := table.NewEmbeddedEngine(env)
	defer eng.Close()
	ctx := context.Background()
	var kinds []types.RowKind
	rows := 0
	r := NewRunner(eng, Options{Hooks: Hooks{Result: func(ctx context.Context, _ Statement, res table.StatementResult) error {
		for b, err := range Batches(ctx, res) {
			if err != nil {
				return err
			}
			rows += b.Len
			for i := range b.Len {
				kinds = append(kinds, b.Kind(i))
			}
		}
		return nil
	}}})
	q := "SELECT k, COUNT(*) FROM (VALUES ('a'), ('a')) AS t(k) GROUP BY k"
	if err := r.Run(ctx, Parse(q, sql.Pos{})); err != nil {
		t.Fatal(err)
	}
	if rows != 3 || kinds[0] != types.Insert || kinds[1] != types.UpdateBefore || kinds[2] != types.UpdateAfter {
		t.Errorf("got %d rows, kinds %v", rows, kinds)
	}
}
