package table

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/types"
)

// FromArrow builds a table from Arrow records, the Go counterpart of
// PyFlink's from_pandas: all records must share one schema, whose fields
// become the columns (their Arrow types mapped to SQL types, see
// types.FromArrow). rowType, when not nil, renames and retypes the columns
// (a ROW type with as many fields; values are converted). The records are
// read each time the table is executed; when their Arrow types are those
// of the columns (types.ToArrow), their arrays go to the job as they are,
// so a table kept in memory is scanned without conversion.
func (t *TableEnvironment) FromArrow(records []arrow.RecordBatch, rowType *types.DataType) (*Table, error) {
	if len(records) == 0 {
		return nil, errorf("FromArrow needs at least one record to know the schema")
	}
	schema := records[0].Schema()
	var fields []types.Field
	var srcTypes []*types.DataType
	for _, f := range schema.Fields() {
		dt, err := types.FromArrow(f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		if !f.Nullable {
			dt = dt.NotNull()
		}
		srcTypes = append(srcTypes, dt)
		fields = append(fields, types.NewField(f.Name, dt))
	}
	for i, r := range records[1:] {
		if !r.Schema().Equal(schema) {
			return nil, fmt.Errorf("record %d has schema %s, record 0 has %s", i+1, r.Schema(), schema)
		}
	}
	target := types.RowType(fields...)
	if rowType != nil {
		if rowType.Root != types.RowRoot || len(rowType.Fields) != len(fields) {
			return nil, fmt.Errorf("FromArrow: the row type must be a ROW of %d fields, got %s", len(fields), rowType)
		}
		target = rowType
	}
	recs := append([]arrow.RecordBatch(nil), records...)
	for _, r := range recs {
		r.Retain()
	}
	ds := DataStreamFromIterator(target, func(yield func(*types.Row) bool) {
		for _, rec := range recs {
			for i := 0; i < int(rec.NumRows()); i++ {
				vals := make([]any, rec.NumCols())
				for c := range vals {
					v := types.ValueAt(rec.Column(c), i, srcTypes[c])
					cv, err := convertValue(v, target.Fields[c].Type)
					if err == nil {
						v = cv
					}
					vals[c] = v
				}
				if !yield(types.NewRow(vals...)) {
					return
				}
			}
		}
	})
	// records whose Arrow types are exactly those of the columns are read
	// as batches, without converting a value
	direct := true
	for c, f := range target.Fields {
		if !arrow.TypeEqual(schema.Field(c).Type, types.ToArrow(f.Type)) {
			direct = false
		}
	}
	if direct {
		ds.arrow = recs
	}
	return t.FromDataStream(ds)
}

// ToArrowContext runs the table and returns its final content as one
// Arrow record, the Go counterpart of PyFlink's to_pandas: a changelog is
// applied (updates and deletes remove rows), so the record holds the
// table's rows at the end of a bounded job. The whole result must fit in
// memory. The caller releases the record. It fails with the table's
// error, a planning error or the job's failure; when ctx ends before the
// job does, it cancels the job and returns ctx's error.
func (t *Table) ToArrowContext(ctx context.Context) (arrow.RecordBatch, error) {
	if err := t.usable(); err != nil {
		return nil, err
	}
	res, err := t.ExecuteContext(ctx)
	if err != nil {
		return nil, err
	}
	// a Next that ctx ends returns false with ctx's error, and Close
	// cancels the unfinished job
	it, err := res.CollectContext(ctx)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	cols := t.columns()
	names := make([]string, len(cols))
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		names[i], ts[i] = c.Name, c.Type.WithTimeAttr(types.NoTimeAttr)
	}
	rows := materialize(it)
	if err := it.Err(); err != nil {
		return nil, err
	}
	bb := types.NewBatchBuilder(ts)
	for _, r := range rows {
		if err := bb.Append(types.Insert, r.Values); err != nil {
			return nil, err
		}
	}
	return bb.Build().Record(types.ArrowSchema(names, ts)), nil
}

// ToArrow is ToArrowContext with context.Background(): it waits for the
// job to end.
func (t *Table) ToArrow() (arrow.RecordBatch, error) {
	return t.ToArrowContext(context.Background())
}

// materialize applies a changelog: +I and +U add a row, -U and -D remove
// the latest equal row.
func materialize(it *RowIterator) []*types.Row {
	var rows []*types.Row
	for it.Next() {
		r := it.Row()
		if r.Kind.IsAccumulate() {
			c := r.Copy()
			c.Kind = types.Insert
			rows = append(rows, c)
			continue
		}
		for i := len(rows) - 1; i >= 0; i-- {
			if sameValues(rows[i], r) {
				rows = append(rows[:i], rows[i+1:]...)
				break
			}
		}
	}
	return rows
}

func sameValues(a, b *types.Row) bool {
	if len(a.Values) != len(b.Values) {
		return false
	}
	for i := range a.Values {
		if !types.ValuesEqual(a.Values[i], b.Values[i]) {
			return false
		}
	}
	return true
}
