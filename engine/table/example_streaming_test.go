//go:build riffle_streaming

package table

import (
	"context"
	"fmt"
	"time"

	"github.com/riffle-sql/riffle/engine/table/datatypes"
	"github.com/riffle-sql/riffle/engine/types"
)

// Examples of the seed inventory's §6 that need group windows, over
// windows and watermarks from the streaming work. Their outputs were
// checked against that work; they run with -tags riffle_streaming until it
// is merged, when this constraint goes.

// exampleEvents is a stream of (user, amount, ts) with a rowtime.
//
// The examples that group or partition by user run at parallelism 1
// (atParallelismOne): at the engine's default, the number of cores, the
// users' windows and over rows come from two tasks, and a before b at the
// same watermark is not an order either engine promises (their Output is
// one task's order).
func exampleEvents(env *TableEnvironment) *Table {
	at := func(s string) time.Time { v, _ := time.Parse("15:04:05.000", s); return v.AddDate(2021, 0, 0) }
	rt := datatypes.Row(datatypes.Field("user", datatypes.String()), datatypes.Field("amount", datatypes.Int()), datatypes.Field("ts", datatypes.Timestamp(3)))
	ds := DataStreamOf(rt,
		types.NewRow("a", int32(1), at("10:00:00.000")),
		types.NewRow("b", int32(2), at("10:07:00.000")),
		types.NewRow("a", int32(3), at("10:59:59.999")),
		types.NewRow("a", int32(4), at("11:00:00.000")))
	t, err := env.FromDataStream(ds, NewSchemaBuilder().Watermark("ts", "ts - INTERVAL '1' SECOND").Build())
	if err != nil {
		panic(err)
	}
	return t
}

// E-35: a window's end is exclusive: the window holding 10:59:59.999 ends
// at 11:00:00.000, where the next one starts.
func ExampleExpression_End() {
	env := MustCreate(InStreamingMode())
	t := exampleEvents(env)
	w := t.Window(TumbleOver(Lit(1).Hours()).On(Col("ts")).Alias("w"))
	show(w.GroupBy(Col("w")).Select(Col("w").Start(), Col("w").End(), Col("w").Rowtime(), Col("amount").Sum()))
	// Output:
	// 2021-01-01 10:00:00.000, 2021-01-01 11:00:00.000, 2021-01-01 10:59:59.999, 6
	// 2021-01-01 11:00:00.000, 2021-01-01 12:00:00.000, 2021-01-01 11:59:59.999, 4
}

// E-77: with size 15 minutes and slide 5, every row falls into 3 windows;
// tumbling windows of 5 minutes partition the rows.
func ExampleSlideOver() {
	env := MustCreate(InStreamingMode())
	t := exampleEvents(env)
	s := t.Window(SlideOver(Lit(15).Minutes()).Every(Lit(5).Minutes()).On(Col("ts")).Alias("w"))
	show(s.GroupBy(Col("w")).Select(Col("w").Start(), Col("w").End(), Col("amount").Count(), Col("amount").Sum()))
	// Output:
	// 2021-01-01 09:50:00.000, 2021-01-01 10:05:00.000, 1, 1
	// 2021-01-01 09:55:00.000, 2021-01-01 10:10:00.000, 2, 3
	// 2021-01-01 10:00:00.000, 2021-01-01 10:15:00.000, 2, 3
	// 2021-01-01 10:05:00.000, 2021-01-01 10:20:00.000, 1, 2
	// 2021-01-01 10:45:00.000, 2021-01-01 11:00:00.000, 1, 3
	// 2021-01-01 10:50:00.000, 2021-01-01 11:05:00.000, 2, 7
	// 2021-01-01 10:55:00.000, 2021-01-01 11:10:00.000, 2, 7
	// 2021-01-01 11:00:00.000, 2021-01-01 11:15:00.000, 1, 4
}

// E-40: CURRENT_WATERMARK has the rowtime's type with precision 3, and is
// NULL before the first watermark.
func ExampleCurrentWatermark() {
	env := MustCreate(InStreamingMode())
	t := exampleEvents(env)
	r := t.Select(Col("user"), CurrentWatermark(Col("ts")).As("wm"))
	fmt.Print(r.Schema())
	// Output:
	// root
	//  |-- user: STRING
	//  |-- wm: TIMESTAMP(3)
}

// A tumbling window grouped by window and key (PyFlink's
// tab.window(Tumble.over(lit(10).minutes).on(tab.rowtime).alias('w'))).
func ExampleTable_Window() {
	env := atParallelismOne(MustCreate(InStreamingMode()))
	t := exampleEvents(env)
	w := t.Window(TumbleOver(Lit(30).Minutes()).On(Col("ts")).Alias("w"))
	show(w.GroupBy(Col("w"), Col("user")).Select(Col("user"), Col("w").Start().As("b"), Col("w").End().As("c"), Col("amount").Sum().As("a")))
	// Output:
	// a, 2021-01-01 10:00:00.000, 2021-01-01 10:30:00.000, 1
	// b, 2021-01-01 10:00:00.000, 2021-01-01 10:30:00.000, 2
	// a, 2021-01-01 10:30:00.000, 2021-01-01 11:00:00.000, 3
	// a, 2021-01-01 11:00:00.000, 2021-01-01 11:30:00.000, 4
}

// An over window: a running sum per user ordered by event time (PyFlink's
// tab.over_window(Over.partition_by(...).order_by(...).preceding(...).alias('w'))).
func ExampleTable_OverWindow() {
	env := atParallelismOne(MustCreate(InStreamingMode()))
	t := exampleEvents(env)
	o := t.OverWindow(OverPartitionBy(Col("user")).OrderBy(Col("ts")).Preceding(UnboundedRange).Alias("w"))
	show(o.Select(Col("user"), Col("amount"), Col("amount").Sum().Over(Col("w")).As("running"), Col("amount").Count().Over(Col("w")).As("n")))
	// Output:
	// a, 1, 1, 1
	// b, 2, 2, 1
	// a, 3, 4, 2
	// a, 4, 8, 3
}

// A row-count over window: the current and the preceding row.
func ExampleRowInterval() {
	env := atParallelismOne(MustCreate(InStreamingMode()))
	t := exampleEvents(env)
	o := t.OverWindow(OverPartitionBy(Col("user")).OrderBy(Col("ts")).Preceding(RowInterval(1)).Following(CurrentRow).Alias("w"))
	show(o.Select(Col("user"), Col("amount"), Col("amount").Sum().Over(Col("w"))))
	// Output:
	// a, 1, 1
	// b, 2, 2
	// a, 3, 4
	// a, 4, 7
}

// A row-count tumbling window: every 2 rows of a user form a window, in
// rowtime order; the last row of a waits for a partner that never comes.
// The result is append-only, as Flink's count windows are.
func ExampleTumbleOver_rowCount() {
	env := MustCreate(InStreamingMode())
	t := exampleEvents(env)
	w := t.Window(TumbleOver(RowInterval(2)).On(Col("ts")).Alias("w"))
	for row, err := range w.GroupBy(Col("w"), Col("user")).Select(Col("user"), Col("amount").Sum().As("total")).Rows(context.Background()) {
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(row)
	}
	// Output:
	// +I[a, 4]
}
