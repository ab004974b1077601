package parquet

import (
	"fmt"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// evalLeaf evaluates a comparison leaf on a read value the SQL way (NULL
// satisfies none).
func evalLeaf(p *connector.Predicate, v any, t *types.DataType) bool {
	switch p.Op {
	case connector.OpIsNull:
		return v == nil
	case connector.OpIsNotNull:
		return v != nil
	}
	if v == nil {
		return false
	}
	val, ok := normLiteral(v, t)
	if !ok {
		panic(fmt.Sprintf("no comparison value for %#v", v))
	}
	switch p.Op {
	case connector.OpIn:
		for _, x := range p.Values {
			lit, _ := normLiteral(x, t)
			if cmpValues(val, lit) == 0 {
				return true
			}
		}
		return false
	}
	lit, _ := normLiteral(p.Value, t)
	c := cmpValues(val, lit)
	switch p.Op {
	case connector.OpEq:
		return c == 0
	case connector.OpNotEq:
		return c != 0
	case connector.OpLess:
		return c < 0
	case connector.OpLessEq:
		return c <= 0
	case connector.OpGreater:
		return c > 0
	case connector.OpGreaterEq:
		return c >= 0
	}
	panic(p.Op)
}

// Skipping row groups never drops a row that satisfies the filter: for
// each column type and each operator around the row-group boundaries, the
// rows of the kept row groups that satisfy the filter are all the file's
// rows that do. TIMESTAMP(3) reads a microsecond file (statistics floored
// like the values).
func TestRowGroupSkippingKeepsMatchingRows(t *testing.T) {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	cols := []struct {
		name  string
		write *types.DataType
		read  *types.DataType
		value func(i int) any
		lit   func(i int) any
	}{
		{"bi", types.BigIntType(), types.BigIntType(), func(i int) any { return int64(i) }, func(i int) any { return int64(i) }},
		{"i", types.IntType(), types.BigIntType(), func(i int) any { return int32(i) }, func(i int) any { return int64(i) }},
		{"d", types.DoubleType(), types.DoubleType(), func(i int) any { return float64(i) / 4 }, func(i int) any { return float64(i) / 4 }},
		{"dec", types.DecimalType(9, 2), types.DecimalType(12, 3), func(i int) any { return dec(fmt.Sprintf("%d.%02d", i/100, i%100)) },
			func(i int) any { return dec(fmt.Sprintf("%d.%02d", i/100, i%100)) }},
		{"s", types.StringType(), types.StringType(), func(i int) any { return fmt.Sprintf("k%05d", i) }, func(i int) any { return fmt.Sprintf("k%05d", i) }},
		{"dt", types.DateType(), types.DateType(), func(i int) any { return types.Date(i) }, func(i int) any { return types.Date(i) }},
		{"ts", types.TimestampType(6), types.TimestampType(3), func(i int) any { return base.Add(time.Duration(i)*time.Millisecond + 500*time.Microsecond) },
			func(i int) any { return base.Add(time.Duration(i) * time.Millisecond) }},
		{"ltz", types.TimestampLTZType(6), types.TimestampLTZType(6), func(i int) any { return base.Add(time.Duration(i) * time.Microsecond) },
			func(i int) any { return base.Add(time.Duration(i) * time.Microsecond) }},
	}
	names := make([]string, len(cols))
	wts := make([]*types.DataType, len(cols))
	rts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		names[i], wts[i], rts[i] = c.name, c.write, c.read
	}
	// Four row groups of 100 rows: values 0..399, every 7th NULL.
	var batches [][][]any
	for g := 0; g < 4; g++ {
		var rows [][]any
		for i := g * 100; i < (g+1)*100; i++ {
			row := make([]any, len(cols))
			for c := range cols {
				if i%7 != 3 {
					row[c] = cols[c].value(i)
				}
			}
			rows = append(rows, row)
		}
		batches = append(batches, rows)
	}
	opts := map[string]string{"block.size": "1", "write.int64.timestamp": "true", "timestamp.time.unit": "micros", "utc-timezone": "true"}
	data := writeFile(t, names, wts, opts, batches...)
	all, _ := readAll(t, data, names, rts, names, rts, opts, nil)
	if len(all) != 400 {
		t.Fatalf("%d rows", len(all))
	}
	ops := []connector.PredicateOp{connector.OpEq, connector.OpNotEq, connector.OpLess, connector.OpLessEq, connector.OpGreater, connector.OpGreaterEq}
	for c, col := range cols {
		for _, at := range []int{0, 3, 99, 100, 101, 199, 250, 399} {
			preds := []*connector.Predicate{{Op: connector.OpIn, Name: col.name, Values: []any{col.lit(at), col.lit(at + 150)}}}
			for _, op := range ops {
				preds = append(preds, &connector.Predicate{Op: op, Name: col.name, Value: col.lit(at)})
			}
			for _, p := range preds {
				want := 0
				for _, r := range all {
					if evalLeaf(p, r[c], col.read) {
						want++
					}
				}
				got, fr := readAll(t, data, names, rts, names, rts, opts, []*connector.Predicate{p})
				n := 0
				for _, r := range got {
					if evalLeaf(p, r[c], col.read) {
						n++
					}
				}
				if n != want {
					read, skipped := fr.RowGroups()
					t.Errorf("%s: %d matching rows after skipping (%d read, %d skipped), want %d", p, n, read, skipped, want)
				}
			}
		}
	}
	// And skipping happens: id = 250 reads one row group of four.
	_, fr := readAll(t, data, names, rts, names, rts, opts, []*connector.Predicate{{Op: connector.OpEq, Name: "ts", Value: cols[6].lit(250)}})
	if read, skipped := fr.RowGroups(); read != 1 || skipped != 3 {
		t.Errorf("ts = 250 ms: read %d row groups, skipped %d", read, skipped)
	}
}
