package table

import (
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/table/datatypes"
	"github.com/riffle-sql/riffle/engine/types"
)

func clicks(t *testing.T, env *TableEnvironment) *Table {
	t.Helper()
	ts := func(s string) time.Time { v, _ := time.Parse("2006-01-02 15:04:05", s); return v }
	rt := datatypes.Row(datatypes.Field("user", datatypes.String()), datatypes.Field("amount", datatypes.Int()), datatypes.Field("ts", datatypes.Timestamp(3)))
	src, err := env.FromElementsWithType([]any{
		[]any{"a", 1, ts("2021-01-01 10:00:01")},
		[]any{"b", 2, ts("2021-01-01 10:03:00")},
		[]any{"a", 3, ts("2021-01-01 10:07:00")},
		[]any{"a", 4, ts("2021-01-01 10:12:00")},
	}, rt)
	mustTable(t, src, err)
	if err := env.CreateTemporaryView("clicks_src", src); err != nil {
		t.Fatal(err)
	}
	tab, err := env.SQLQuery("SELECT * FROM clicks_src")
	mustTable(t, tab, err)
	return tab
}

func TestGroupWindows(t *testing.T) {
	env := MustCreate(InBatchMode())
	if !sqlSupports(env, "SELECT TUMBLE_START(ts, INTERVAL '5' MINUTE), COUNT(*) FROM (VALUES (TIMESTAMP '2021-01-01 00:00:00')) AS t(ts) GROUP BY TUMBLE(ts, INTERVAL '5' MINUTE)") {
		t.Skip("group windows not available yet")
	}
	c := clicks(t, env)
	w := c.Window(TumbleOver(Lit(5).Minutes()).On(Col("ts")).Alias("w"))
	wantRows(t, w.GroupBy(Col("w")).Select(Col("w").Start().As("s"), Col("w").End().As("e"), Col("amount").Sum().As("total")).OrderBy(Col("s")),
		"+I[2021-01-01T10:00, 2021-01-01T10:05, 3]", "+I[2021-01-01T10:05, 2021-01-01T10:10, 3]", "+I[2021-01-01T10:10, 2021-01-01T10:15, 4]")
	wantRows(t, w.GroupBy(Col("w"), Col("user")).Select(Col("user"), Col("w").Start().As("s"), Col("amount").Sum().As("total")).OrderBy(Col("s"), Col("user")),
		"+I[a, 2021-01-01T10:00, 1]", "+I[b, 2021-01-01T10:00, 2]", "+I[a, 2021-01-01T10:05, 3]", "+I[a, 2021-01-01T10:10, 4]")
	// sliding: a 15 minute window every 5 minutes holds each row 3 times
	s := c.Window(SlideOver(Lit(15).Minutes()).Every(Lit(5).Minutes()).On(Col("ts")).Alias("w"))
	wantRows(t, s.GroupBy(Col("w")).Select(Col("amount").Count().As("n")).Select(Col("n").Sum()), "+I[12]")
	// session windows close after a gap (windows that touch merge, as in
	// Flink: 10:03 + 4 min reaches 10:07)
	g := c.Window(SessionWithGap(Lit(4).Minutes()).On(Col("ts")).Alias("w"))
	wantRows(t, g.GroupBy(Col("w")).Select(Col("w").Start().As("s"), Col("amount").Count().As("n")).OrderBy(Col("s")),
		"+I[2021-01-01T10:00:01, 3]", "+I[2021-01-01T10:12, 1]")
	if err := c.Window(TumbleOver(Lit(5).Minutes()).On(Col("ts")).Alias("w")).GroupBy(Col("user")).Select(Col("user")).Err(); err == nil {
		t.Fatal("grouping without the window alias must fail")
	}
	// aggregate functions over windows
	mm := UDAF(minMax{})
	wantRows(t, w.GroupBy(Col("w")).Aggregate(mm.Call(Col("amount").Cast(datatypes.BigInt())).As("lo", "hi")).Select(Col("w").Start().As("s"), Col("lo"), Col("hi")).OrderBy(Col("s")),
		"+I[2021-01-01T10:00, 1, 2]", "+I[2021-01-01T10:05, 3, 3]", "+I[2021-01-01T10:10, 4, 4]")
}

func TestOverWindows(t *testing.T) {
	env := MustCreate(InBatchMode())
	if !sqlSupports(env, "SELECT SUM(a) OVER (ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM (VALUES (1)) AS t(a)") {
		t.Skip("OVER windows not available yet")
	}
	c := clicks(t, env)
	o := c.OverWindow(OverPartitionBy(Col("user")).OrderBy(Col("ts")).Preceding(UnboundedRange).Alias("w"))
	wantRows(t, o.Select(Col("user"), Col("amount"), Col("amount").Sum().Over(Col("w")).As("running")).OrderBy(Col("user"), Col("amount")),
		"+I[a, 1, 1]", "+I[a, 3, 4]", "+I[a, 4, 8]", "+I[b, 2, 2]")
	r := c.OverWindow(OverPartitionBy(Col("user")).OrderBy(Col("ts")).Preceding(RowInterval(1)).Following(CurrentRow).Alias("w"))
	wantRows(t, r.Select(Col("user"), Col("amount"), Col("amount").Sum().Over(Col("w")).As("last2")).OrderBy(Col("user"), Col("amount")),
		"+I[a, 1, 1]", "+I[a, 3, 4]", "+I[a, 4, 7]", "+I[b, 2, 2]")
	tr := c.OverWindow(OverPartitionBy(Col("user")).OrderBy(Col("ts")).Preceding(Lit(6).Minutes()).Alias("w"))
	wantRows(t, tr.Select(Col("user"), Col("amount"), Col("amount").Count().Over(Col("w")).As("n")).OrderBy(Col("user"), Col("amount")),
		"+I[a, 1, 1]", "+I[a, 3, 1]", "+I[a, 4, 2]", "+I[b, 2, 1]")
	if err := c.OverWindow(OverOrderBy(Col("ts")).Alias("w")).Select(Col("amount").Sum().Over(Col("x"))).Err(); err == nil {
		t.Fatal("an undefined window alias must fail")
	}
}

func TestCountWindows(t *testing.T) {
	env := MustCreate(InBatchMode())
	base := time.Date(2021, 1, 1, 10, 0, 0, 0, time.UTC)
	rt := datatypes.Row(datatypes.Field("user", datatypes.String()), datatypes.Field("amount", datatypes.Int()), datatypes.Field("ts", datatypes.Timestamp(3)))
	var rows []any
	for i, r := range []struct {
		user   string
		amount int
	}{{"a", 1}, {"b", 10}, {"a", 2}, {"a", 3}, {"b", 20}, {"a", 4}, {"a", 5}} {
		rows = append(rows, []any{r.user, r.amount, base.Add(time.Duration(i) * time.Minute)})
	}
	src, err := env.FromElementsWithType(rows, rt)
	mustTable(t, src, err)

	// the window API validates without running a query
	if err := src.Window(SlideOver(RowInterval(2)).Every(Lit(1).Minutes()).On(Col("ts")).Alias("w")).GroupBy(Col("w")).Select(Col("amount").Sum()).Err(); err == nil ||
		!strings.Contains(err.Error(), "same type of size and slide") {
		t.Fatalf("mixed size and slide: %v", err)
	}
	if err := src.Window(SessionWithGap(RowInterval(2)).On(Col("ts")).Alias("w")).GroupBy(Col("w")).Select(Col("amount").Sum()).Err(); err == nil ||
		!strings.Contains(err.Error(), "gap literal of a day-time interval") {
		t.Fatalf("row-count session: %v", err)
	}
	if s := TumbleOver(RowInterval(2)).On(Col("ts")).Alias("w").String(); s != "TUMBLE(`ts`, 2 ROWS) AS `w`" {
		t.Fatalf("String() = %s", s)
	}
	if !sqlSupports(env, "SELECT COUNT(*) OVER (ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM (VALUES (1)) AS t(a)") {
		t.Skip("OVER windows not available yet")
	}
	tumble := src.Window(TumbleOver(RowInterval(2)).On(Col("ts")).Alias("w"))
	// per user: a = 1+2, 3+4 (5 never fills its window); b = 10+20
	wantRows(t, tumble.GroupBy(Col("w"), Col("user")).Select(Col("user"), Col("amount").Sum().As("total")).OrderBy(Col("user"), Col("total")),
		"+I[a, 3]", "+I[a, 7]", "+I[b, 30]")
	// without keys the rows are counted in time order: 1+10, 2+3, 20+4
	wantRows(t, tumble.GroupBy(Col("w")).Select(Col("amount").Sum().As("total")).OrderBy(Col("total")),
		"+I[5]", "+I[11]", "+I[24]")
	// sliding: size 3 every 2 rows: a = 1+2+3, 3+4+5; b never has 3 rows
	slide := src.Window(SlideOver(RowInterval(3)).Every(RowInterval(2)).On(Col("ts")).Alias("w"))
	wantRows(t, slide.GroupBy(Col("w"), Col("user")).Select(Col("user"), Col("amount").Sum().As("total")).OrderBy(Col("user"), Col("total")),
		"+I[a, 6]", "+I[a, 12]")
	// a slide larger than the size skips rows: a = 1+2, 4+5; b = 10+20
	gaps := src.Window(SlideOver(RowInterval(2)).Every(RowInterval(3)).On(Col("ts")).Alias("w"))
	wantRows(t, gaps.GroupBy(Col("w"), Col("user")).Select(Col("user"), Col("amount").Sum().As("total")).OrderBy(Col("user"), Col("total")),
		"+I[a, 3]", "+I[a, 9]", "+I[b, 30]")
	// properties do not exist for count windows (Flink's message)
	err = tumble.GroupBy(Col("w"), Col("user")).Select(Col("user"), Col("w").Start()).Err()
	if err == nil || !strings.Contains(err.Error(), "cannot be selected for a row-count tumble window") {
		t.Fatalf("w.start on a count window: %v", err)
	}
	// user aggregate functions over count windows
	mm := UDAF(minMax{})
	wantRows(t, tumble.GroupBy(Col("w"), Col("user")).Aggregate(mm.Call(Col("amount").Cast(datatypes.BigInt())).As("lo", "hi")).Select(Col("user"), Col("lo"), Col("hi")).OrderBy(Col("user"), Col("lo")),
		"+I[a, 1, 2]", "+I[a, 3, 4]", "+I[b, 10, 20]")
}

func TestCountWindowsStreaming(t *testing.T) {
	env := MustCreate(InStreamingMode())
	if !sqlSupports(MustCreate(InBatchMode()), "SELECT COUNT(*) OVER (ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM (VALUES (1)) AS t(a)") {
		t.Skip("OVER windows not available yet")
	}
	base := time.Date(2021, 1, 1, 10, 0, 0, 0, time.UTC)
	rt := datatypes.Row(datatypes.Field("user", datatypes.String()), datatypes.Field("amount", datatypes.Int()), datatypes.Field("ts", datatypes.Timestamp(3)))
	var rows []*types.Row
	for i, a := range []int32{1, 2, 3, 4, 5} {
		rows = append(rows, types.NewRow("a", a, base.Add(time.Duration(i)*time.Second)))
	}
	src, err := env.FromDataStream(DataStreamOf(rt, rows...), NewSchemaBuilder().Watermark("ts", "ts").Build())
	mustTable(t, src, err)
	// built-in aggregates: one +I per full window (size 3, every 2 rows)
	w := src.Window(SlideOver(RowInterval(3)).Every(RowInterval(2)).On(Col("ts")).Alias("w"))
	wantRows(t, w.GroupBy(Col("w")).Select(Col("amount").Sum().As("total"), Col("amount").Max().As("hi")), "+I[6, 3]", "+I[12, 5]")
}
