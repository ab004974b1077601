package table

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
)

// The examples print results with these helpers.

// exampleEnv is a batch environment in UTC.
func exampleEnv() *TableEnvironment {
	env := atParallelismOne(MustCreate(InBatchMode()))
	_ = env.Config().SetLocalTimeZone("UTC")
	return env
}

// oneRow is a one-row table to evaluate expressions on.
func oneRow(env *TableEnvironment) *Table {
	t, err := env.FromElements([]any{[]any{1}}, "one")
	if err != nil {
		panic(err)
	}
	return t
}

// eval prints the values of expressions evaluated on one row, in SQL
// display form.
func eval(env *TableEnvironment, es ...Expression) {
	show(oneRow(env).Select(es...))
}

// show prints a table's rows in SQL display form, one per line, with the
// row kind when it is not INSERT.
func show(t *Table) {
	ts := t.Schema().FieldDataTypes()
	for r, err := range t.Rows(context.Background()) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		line := ""
		if r.Kind != 0 {
			line = r.Kind.ShortString() + " "
		}
		for i, v := range r.Values {
			if i > 0 {
				line += ", "
			}
			line += expr.FormatSQL(v, ts[i], time.UTC)
		}
		fmt.Println(line)
	}
}

// table prints a table in the SQL Client's tableau layout.
func table(t *Table) {
	ctx := context.Background()
	res, err := t.ExecuteContext(ctx)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	if err := res.PrintContext(ctx, os.Stdout); err != nil {
		fmt.Println("error:", err)
	}
}
