package querybuilder

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
)

// newStreamingPanel shows a builder on a streaming engine with a table
// with a rowtime and watermark (ticks), one with a processing-time column
// (clicks) and one with no time attribute (plain).
func newStreamingPanel(t *testing.T) (*Panel, *fakeHost) {
	t.Helper()
	test.NewTempApp(t)
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	for _, ddl := range []string{
		"CREATE TABLE ticks (symbol STRING, price DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) " +
			"WITH ('connector' = 'datagen', 'number-of-rows' = '300', 'fields.symbol.length' = '1', 'fields.price.min' = '1', 'fields.price.max' = '100')",
		"CREATE TABLE clicks (user_id BIGINT, `load ms` INT, pt AS PROCTIME()) WITH ('connector' = 'datagen', 'number-of-rows' = '10')",
		"CREATE TABLE plain (id BIGINT, amount DOUBLE) WITH ('connector' = 'datagen', 'number-of-rows' = '10')",
	} {
		if _, err := env.ExecuteSQL(ddl); err != nil {
			t.Fatal(err)
		}
	}
	h := &fakeHost{win: test.NewWindow(nil), area: widget.NewLabel("editors"), env: env,
		tab: &fakeTab{ed: &fakeEditor{text: ""}}}
	t.Cleanup(h.win.Close)
	b := New(h)
	h.win.SetContent(container.NewStack(b.Area(h.area)))
	h.win.Resize(fyne.NewSize(1000, 700))
	return b, h
}

// Pattern (MATCH_RECOGNIZE)… writes, after the builder's query, a
// template over its table with the table's own columns; the engine
// explains it and runs it to the end of a bounded source.
func TestPatternTemplateRunsOnARowtimeTable(t *testing.T) {
	b, h := newStreamingPanel(t)
	b.SetShown(true)
	b.TableSelect().SetSelected("ticks")
	test.Tap(b.PatternButton())
	text := h.tab.ed.text
	before, stmt, ok := strings.Cut(text, ";\n\n")
	if !ok || before != "SELECT *\nFROM ticks" {
		t.Fatalf("editor:\n%s", text)
	}
	want := `SELECT *
FROM ticks
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY ts
        MEASURES
            FIRST(A.price) AS start_price,
            LAST(B.price) AS peak_price,
            LAST(C.price) AS end_price,
            FIRST(A.ts) AS match_start,
            LAST(C.ts) AS match_end
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B+ C) WITHIN INTERVAL '1' HOUR
        DEFINE
            B AS B.price > A.price,
            C AS C.price < LAST(B.price)
    ) AS mr`
	if stmt != want {
		t.Fatalf("template:\n%s\nwant:\n%s", stmt, want)
	}
	if !strings.HasPrefix(b.Status(), "✓") || b.Query() != nil || b.Statement() != want {
		t.Errorf("status %q, query %v, statement %q", b.Status(), b.Query(), b.Statement())
	}
	env := h.env
	if _, err := env.ExecuteSQL("EXPLAIN " + stmt); err != nil {
		t.Fatalf("EXPLAIN: %v", err)
	}
	res, err := env.ExecuteSQL(stmt)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Schema().FieldNames(), ","); got != "symbol,start_price,peak_price,end_price,match_start,match_end" {
		t.Errorf("columns %s", got)
	}
	n := 0
	for row, err := range res.Rows(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		// a rise above the first row, then a fall below the peak
		start, peak, end := row.Values[1].(float64), row.Values[2].(float64), row.Values[3].(float64)
		if !(peak > start && end < peak) {
			t.Errorf("match %v breaks its DEFINE", row.Values)
		}
		n++
	}
	if n == 0 {
		t.Error("no match in 300 random prices")
	}
}

// On a processing-time column the template orders by it (and measures no
// row times); on a table without a time attribute it says why none is
// written.
func TestPatternTemplateProctimeAndNoTimeAttribute(t *testing.T) {
	b, h := newStreamingPanel(t)
	b.SetShown(true)
	b.TableSelect().SetSelected("clicks")
	test.Tap(b.PatternButton())
	_, stmt, _ := strings.Cut(h.tab.ed.text, ";\n\n")
	for _, want := range []string{"PARTITION BY user_id\n", "ORDER BY pt\n", "FIRST(A.`load ms`) AS `start_load ms`", "C AS C.`load ms` < LAST(B.`load ms`)"} {
		if !strings.Contains(stmt, want) {
			t.Errorf("template lacks %q:\n%s", want, stmt)
		}
	}
	if strings.Contains(stmt, "match_start") {
		t.Errorf("a proctime template measures row times:\n%s", stmt)
	}
	if _, err := h.env.ExecuteSQL("EXPLAIN " + stmt); err != nil {
		t.Fatalf("EXPLAIN: %v\n%s", err, stmt)
	}

	b.TableSelect().SetSelected("plain")
	text := h.tab.ed.text
	test.Tap(b.PatternButton())
	if h.tab.ed.text != text || !strings.Contains(b.Status(), "plain has no time attribute: MATCH_RECOGNIZE orders") {
		t.Errorf("status %q, editor changed %v", b.Status(), h.tab.ed.text != text)
	}
}
