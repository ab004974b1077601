package table

import (
	"context"
	"fmt"
	"time"

	"github.com/riffle-sql/riffle/engine/common"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/internal/plan/rules"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// ---------------------------------------------------------------- tables to streams

// toStream runs a table and delivers its rows to a DataStream. mode is
// the requested changelog mode; insertOnly rejects updating tables. ctx
// bounds planning, submission and the stream: when it ends before the
// job, the job is cancelled, the stream's channel closes and its Err is
// ctx's error.
func (t *TableEnvironment) toStream(ctx context.Context, tab *Table, target *Schema, mode types.ChangelogMode, what string) (*DataStream, error) {
	if err := t.checkInput(tab); err != nil {
		return nil, err
	}
	src := tab
	cols := tab.columns()
	var schema *types.Schema
	rowtimeCol := -1
	if target != nil {
		if err := target.Err(); err != nil {
			return nil, err
		}
		var proj []Expression
		var out []types.Column
		metaRowtime := ""
		for _, c := range target.Columns {
			if c.Kind == types.MetadataColumn {
				key := c.MetadataKey
				if key == "" {
					key = c.Name
				}
				if key != "rowtime" {
					return nil, fmt.Errorf("Invalid metadata key '%s' in column '%s': a DataStream offers the metadata key 'rowtime' only", key, c.Name)
				}
				metaRowtime = c.Name
			}
		}
		phys := 0
		for _, c := range target.Columns {
			if c.Kind == types.PhysicalColumn {
				phys++
			}
		}
		if phys == 0 {
			// derived: every column, the last one replaced by the rowtime
			derived := cols
			if metaRowtime != "" && len(derived) > 0 {
				rowtimeCol = len(derived) - 1
				derived = derived[:len(derived)-1]
			}
			for _, c := range derived {
				proj = append(proj, Col(c.Name))
				out = append(out, types.Column{Name: c.Name, Type: c.Type.WithTimeAttr(types.NoTimeAttr)})
			}
		} else {
			for _, c := range target.Columns {
				if c.Kind != types.PhysicalColumn {
					continue
				}
				dt := c.Type
				if dt == nil {
					pt, err := sql.ParseDataType(c.TypeString)
					if err != nil {
						return nil, err
					}
					if dt, err = binder.ConvertType(pt); err != nil {
						return nil, err
					}
				}
				proj = append(proj, Col(c.Name).Cast(dt).As(c.Name))
				out = append(out, types.Column{Name: c.Name, Type: dt})
			}
			if metaRowtime != "" {
				for i, c := range cols {
					if c.Type.IsRowtime() {
						rowtimeCol = i
					}
				}
				if rowtimeCol >= 0 {
					proj = append(proj, Col(cols[rowtimeCol].Name))
					rowtimeCol = len(proj) - 1
				}
			}
		}
		if metaRowtime != "" {
			out = append(out, types.Column{Name: metaRowtime, Type: types.TimestampLTZType(3), Kind: types.MetadataColumn})
			if rowtimeCol >= 0 && phys == 0 {
				proj = append(proj, Col(cols[rowtimeCol].Name))
				rowtimeCol = len(proj) - 1
			}
		}
		src = tab.Select(proj...)
		if src.err != nil {
			return nil, src.err
		}
		schema = &types.Schema{Columns: out}
	} else {
		var out []types.Column
		for _, c := range cols {
			out = append(out, types.Column{Name: c.Name, Type: c.Type.WithTimeAttr(types.NoTimeAttr)})
		}
		schema = &types.Schema{Columns: out}
		// a single rowtime column becomes the record timestamp
		for i, c := range cols {
			if c.Type.IsRowtime() {
				if rowtimeCol >= 0 {
					rowtimeCol = -1
					break
				}
				rowtimeCol = i
			}
		}
	}
	// check the changelog mode before running
	root, err := physical.Plan(rules.Optimize(&plan.Sink{Input: src.node, Collect: true}), t.planEnv())
	if err != nil {
		return nil, err
	}
	produced := root.Mode
	if len(root.Inputs) > 0 {
		produced = root.Inputs[0].Mode
	}
	if !t.IsStreaming() {
		produced = types.InsertOnlyMode
	}
	dropUB := false
	for _, k := range produced.Kinds() {
		if mode.Contains(k) {
			continue
		}
		if k == types.UpdateBefore && mode.Contains(types.UpdateAfter) {
			dropUB = true
			continue
		}
		return nil, fmt.Errorf("%s: the table produces a changelog with kinds [%s], which the requested changelog mode [%s] cannot represent", what, produced, mode)
	}
	res, err := t.runQuery(ctx, src.node, what)
	if err != nil {
		return nil, err
	}
	ds := &DataStream{rowType: rowTypeOf(schema), job: res.job, out: make(chan StreamRecord), schema: schema, mode: mode}
	nPhys := len(schema.Physical())
	names := schema.ColumnNames()[:nPhys] // one copy, shared by the records' rows
	go func() {
		defer close(ds.out)
		// ctx's end stops Next and the send below; closing the iterator
		// then cancels the unfinished job
		it, err := res.CollectContext(ctx)
		if err != nil {
			ds.setErr(err)
			return
		}
		defer it.Close()
		for it.Next() {
			r := it.Row()
			if dropUB && r.Kind == types.UpdateBefore {
				continue
			}
			rec := StreamRecord{Row: &types.Row{Kind: r.Kind, Values: r.Values[:min(nPhys, len(r.Values))], Names: names}}
			if rowtimeCol >= 0 && rowtimeCol < len(r.Values) {
				if ts, ok := r.Values[rowtimeCol].(time.Time); ok {
					rec.Timestamp = ts
				}
			}
			if err := ctx.Err(); err != nil {
				ds.setErr(err)
				return
			}
			select {
			case ds.out <- rec:
			case <-ctx.Done():
				ds.setErr(ctx.Err())
				return
			}
		}
		ds.setErr(it.Err())
	}()
	return ds, nil
}

func (d *DataStream) setErr(err error) {
	d.errMu.Lock()
	d.err = err
	d.errMu.Unlock()
}

func rowTypeOf(s *types.Schema) *types.DataType {
	var fields []types.Field
	for _, c := range s.Physical() {
		fields = append(fields, types.NewField(c.Name, c.Type))
	}
	return types.RowType(fields...)
}

// ToDataStreamContext runs an insert-only table and delivers its rows to
// a DataStream (PyFlink's to_data_stream). An updating table is rejected.
// A single rowtime column becomes the records' timestamp. ctx bounds
// planning and submission and then the stream: when ctx ends before the
// job does, the job is cancelled, the stream's channel closes and its Err
// returns ctx's error. The stream ends with the job otherwise (or its
// Close).
func (t *TableEnvironment) ToDataStreamContext(ctx context.Context, tab *Table) (*DataStream, error) {
	return t.toStream(ctx, tab, nil, types.InsertOnlyMode, "ToDataStream")
}

// ToChangelogStreamContext runs a table and delivers its changelog, each
// row with its RowKind, to a DataStream (PyFlink's to_changelog_stream).
// The default mode accepts every kind; a narrower mode fails when the
// table cannot be represented in it (an upsert mode drops UPDATE_BEFORE
// rows). A target schema sets the columns and types of the records
// (values are cast); a metadata column with key "rowtime" takes the
// records' timestamp instead of a column (with no physical columns
// declared, the last column). ctx bounds the stream as
// ToDataStreamContext's does.
func (t *TableEnvironment) ToChangelogStreamContext(ctx context.Context, tab *Table, target *Schema, mode ...types.ChangelogMode) (*DataStream, error) {
	m := types.RetractMode
	if len(mode) > 0 {
		m = mode[0]
	}
	return t.toStream(ctx, tab, target, m, "ToChangelogStream")
}

// ToAppendStreamContext runs an insert-only table and delivers its rows,
// converted to typeInfo's row type when given (PyFlink's
// to_append_stream). ctx bounds the stream as ToDataStreamContext's
// does.
func (t *TableEnvironment) ToAppendStreamContext(ctx context.Context, tab *Table, typeInfo ...*common.TypeInformation) (*DataStream, error) {
	target, err := typeInfoSchema(typeInfo)
	if err != nil {
		return nil, err
	}
	return t.toStream(ctx, tab, target, types.InsertOnlyMode, "ToAppendStream")
}

// RetractRecord is an element of a retract stream: Add is true for an
// added row and false for a retracted one (PyFlink's (flag, record)
// tuples).
type RetractRecord struct {
	Add bool
	Row *types.Row
}

// ToRetractStreamContext runs a table and delivers its changelog as
// (add, row) pairs: INSERT and UPDATE_AFTER rows are additions,
// UPDATE_BEFORE and DELETE retractions (PyFlink's to_retract_stream). The
// channel closes when the job ends; ds.Err then reports a failure. ctx
// bounds the stream as ToDataStreamContext's does: when it ends first the
// job is cancelled, the channel closes and ds.Err returns ctx's error.
func (t *TableEnvironment) ToRetractStreamContext(ctx context.Context, tab *Table, typeInfo ...*common.TypeInformation) (<-chan RetractRecord, *DataStream, error) {
	target, err := typeInfoSchema(typeInfo)
	if err != nil {
		return nil, nil, err
	}
	ds, err := t.toStream(ctx, tab, target, types.RetractMode, "ToRetractStream")
	if err != nil {
		return nil, nil, err
	}
	out := make(chan RetractRecord)
	go func() {
		defer close(out)
		in := ds.Records()
		for r := range in {
			add := r.Row.Kind.IsAccumulate()
			c := r.Row.Copy()
			c.Kind = types.Insert
			select {
			case out <- RetractRecord{Add: add, Row: c}:
			case <-ctx.Done():
				// the stream ends with ctx too: wait for it, so that
				// ds.Err is set when out closes
				for range in {
				}
				return
			}
		}
	}()
	return out, ds, nil
}

// typeInfoSchema turns a ROW type information into a target schema.
func typeInfoSchema(ti []*common.TypeInformation) (*Schema, error) {
	if len(ti) == 0 || ti[0] == nil {
		return nil, nil
	}
	dt := ti[0].DataType()
	if dt.Root != types.RowRoot {
		return nil, fmt.Errorf("the type information of a table conversion must describe rows, got %s", ti[0])
	}
	return NewSchemaBuilder().FromRowDataType(dt).Build(), nil
}
