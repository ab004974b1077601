package table

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// runBatchQuery runs q to its end and returns its rows or the first error;
// a panic is reported as an error naming it, so a test can tell a panic
// from a refusal.
func runBatchQuery(env *TableEnvironment, q string) (rows []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("PANIC: %v", r)
		}
	}()
	res, err := env.ExecuteSQL(q)
	if err != nil {
		return nil, err
	}
	for r, err := range res.Rows(context.Background()) {
		if err != nil {
			return rows, err
		}
		rows = append(rows, r.String())
	}
	return rows, nil
}

// No change (-U/+U/-D) reaches a batch operator: every route that would
// bring one is refused, so the batch GroupAgg can neither give wrong
// answers nor be driven into its index-out-of-range panic (4,096 inserts,
// one full input batch, then a DELETE). FROM_CHANGELOG and a user-defined
// PTF with updating output are refused as Flink 2.3 refuses every PTF in
// batch mode; a changelog DataStream as an updating source.
func TestBatchRefusesChanges(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	for i := 0; i < 4096; i++ {
		fmt.Fprintf(&sb, "%d,n%d,INSERT\n", i, i%3)
	}
	sb.WriteString("0,n0,DELETE\n")
	path := filepath.Join(dir, "cdc.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := atParallelismOne(MustCreate(InBatchMode()))
	mustExec(t, env, fmt.Sprintf("CREATE TABLE cdc (id INT, name STRING, op STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')", path))
	updating := PTF(&ProcessTableFunctionDef{
		Args:           []PTFArg{SetSemanticTable("r")},
		Output:         []types.Field{{Name: "x", Type: types.IntType()}},
		UpdatingOutput: true,
		New: func() ProcessTableFunction {
			return PTFEvalFunc(func(ctx PTFContext, row *PTFRow) error {
				if err := ctx.CollectKind(types.Insert, int32(1)); err != nil {
					return err
				}
				return ctx.CollectKind(types.Delete, int32(1))
			})
		},
	})
	if err := env.CreateTemporarySystemFunction("updating", updating); err != nil {
		t.Fatal(err)
	}
	const ptfRefusal = "There are not enough rules to produce a node with desired properties: convention=BATCH_PHYSICAL"
	for _, q := range []string{
		"SELECT COUNT(*) FROM FROM_CHANGELOG(input => TABLE cdc)",
		"SELECT name, COUNT(*) AS c FROM FROM_CHANGELOG(input => TABLE cdc) GROUP BY name",
		"SELECT * FROM FROM_CHANGELOG(input => TABLE cdc)",
		"SELECT COUNT(*) FROM FROM_CHANGELOG(input => (SELECT * FROM TO_CHANGELOG(input => (SELECT id, name FROM cdc))))",
		"SELECT COUNT(*) FROM updating(r => TABLE cdc PARTITION BY name)",
	} {
		rows, err := runBatchQuery(env, q)
		if err == nil || !strings.HasPrefix(err.Error(), ptfRefusal) {
			t.Errorf("%s: got rows %d, error %v; want %q", q, len(rows), err, ptfRefusal)
		}
	}
	// TO_CHANGELOG's output is insert-only: it runs (riffle-only)
	if rows, err := runBatchQuery(env, "SELECT COUNT(*) FROM TO_CHANGELOG(input => (SELECT id, name FROM cdc))"); err != nil || strings.Join(rows, ",") != "+I[4097]" {
		t.Errorf("TO_CHANGELOG: %v, %v", rows, err)
	}

	// a changelog DataStream in batch mode: refused (it is unbounded; an
	// updating source is refused too)
	rt := types.RowType(types.NewField("name", types.StringType()), types.NewField("v", types.BigIntType()))
	ch := make(chan *types.Row, 4097)
	for i := 0; i < 4096; i++ {
		ch <- types.NewRowWithKind(types.Insert, "n", int64(i))
	}
	ch <- types.NewRowWithKind(types.Delete, "n", int64(0))
	close(ch)
	tab, err := env.FromChangelogStream(NewDataStream(ch, rt), nil)
	mustTable(t, tab, err)
	if err := env.CreateTemporaryView("chg", tab); err != nil {
		t.Fatal(err)
	}
	rows, err := runBatchQuery(env, "SELECT COUNT(*) FROM chg")
	if err == nil || !strings.Contains(err.Error(), "in batch mode") || strings.Contains(err.Error(), "PANIC") {
		t.Errorf("FromChangelogStream in batch mode: got rows %v, error %v", rows, err)
	}
}
