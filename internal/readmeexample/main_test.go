// Package readmeexample keeps the embedding example of docs/embedding.md compiling and
// correct: the code below is docs/embedding.md's, with its errors checked.
package readmeexample

import (
	"context"
	"fmt"
	"log"
	"testing"

	_ "github.com/riffle-sql/riffle/engine/connector/all" // filesystem, datagen, csv, json, ...
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

func embed() []string {
	var out []string
	ctx := context.Background()
	env, err := table.Create(table.InBatchMode())
	if err != nil {
		log.Fatal(err)
	}
	// A table from Go values; a Table is usable from SQL through String().
	orders, err := env.FromElements(
		[]any{types.NewRow("Alice", int64(10)), types.NewRow("Bob", int64(20)), types.NewRow("Alice", int64(30))},
		"name", "amount")
	if err != nil {
		log.Fatal(err)
	}
	// The Table API and SQL build the same plans.
	totals := orders.GroupBy(table.Col("name")).Select(table.Col("name"), table.Col("amount").Sum().As("total"))
	res, err := env.ExecuteSQLContext(ctx, "SELECT name, total FROM "+totals.String()+" ORDER BY total DESC")
	if err != nil {
		log.Fatal(err)
	}
	for row, err := range res.Rows(ctx) {
		// row is a *types.Row with its RowKind: +I[Alice, 40], then +I[Bob, 20];
		// err is the job's failure or ctx's end, yielded once with a nil row
		if err != nil {
			log.Fatal(err)
		}
		out = append(out, fmt.Sprint(row))
	}
	return out
}

func TestReadmeExample(t *testing.T) {
	got := embed()
	want := []string{"+I[Alice, 40]", "+I[Bob, 20]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
