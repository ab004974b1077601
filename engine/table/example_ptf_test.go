package table

import (
	"fmt"
	"time"

	"github.com/riffle-sql/riffle/engine/table/datatypes"
	"github.com/riffle-sql/riffle/engine/types"
)

// idleUsers is a process table function with state and a timer: per user
// it counts the clicks, and once the watermark is 10 seconds past a
// user's last click it emits the count and clears the user's state.
type idleUsers struct{}

func (idleUsers) Eval(ctx PTFContext, row *PTFRow) error {
	n, _ := StateValue[int64](ctx, "clicks")
	if err := ctx.SetState("clicks", n+1); err != nil {
		return err
	}
	now, _ := ctx.Time()
	// a named timer: registering it again moves it
	return ctx.RegisterOnTime("idle", now+10_000)
}

func (idleUsers) OnTimer(ctx PTFTimerContext) error {
	n, _ := StateValue[int64](ctx, "clicks")
	ctx.ClearAll()
	return ctx.Collect(fmt.Sprintf("idle after %d clicks", n))
}

// A PTF in Go, called from SQL with a set-semantic table partitioned by
// user and on_time: the output is the partition key, the function's
// column and rowtime (the timer's time).
func ExamplePTF() {
	env := atParallelismOne(MustCreate(InStreamingMode()))
	at := func(s string) time.Time { v, _ := time.Parse("15:04:05", s); return v.AddDate(2025, 0, 0) }
	rt := datatypes.Row(datatypes.Field("user", datatypes.String()), datatypes.Field("ts", datatypes.Timestamp(3)))
	clicks, err := env.FromDataStream(DataStreamOf(rt,
		types.NewRow("ann", at("10:00:00")),
		types.NewRow("bob", at("10:00:03")),
		types.NewRow("ann", at("10:00:05")),
		types.NewRow("bob", at("10:00:30"))),
		NewSchemaBuilder().Watermark("ts", "ts - INTERVAL '1' SECOND").Build())
	if err != nil {
		panic(err)
	}
	if err := env.CreateTemporaryView("clicks", clicks); err != nil {
		panic(err)
	}
	idle := PTF(&ProcessTableFunctionDef{
		Args:   []PTFArg{SetSemanticTable("input")},
		Output: []types.Field{{Name: "status", Type: types.StringType()}},
		State:  []PTFState{{Name: "clicks", Type: types.BigIntType()}},
		New:    func() ProcessTableFunction { return idleUsers{} },
	})
	if err := env.CreateTemporarySystemFunction("idle_users", idle); err != nil {
		panic(err)
	}
	t, err := env.SQLQuery("SELECT * FROM idle_users(input => TABLE clicks PARTITION BY `user`, on_time => DESCRIPTOR(ts))")
	if err != nil {
		panic(err)
	}
	show(t)
	// Output:
	// ann, idle after 2 clicks, 2025-01-01 10:00:15.000
	// bob, idle after 2 clicks, 2025-01-01 10:00:40.000
}
