package jdbc

import (
	"context"

	"fmt"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"io"
	"math"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Source reads a database table as a bounded snapshot (Flink's
// JdbcDynamicTableSource, in batch and streaming mode alike): one query
// per split, with the projection, the pushed filters and the LIMIT in the
// SQL the database runs.
type Source struct {
	t *tableOptions
	// filters are the predicates translated into SQL, in offer order
	filters  []*connector.Predicate
	accepted []bool
	limit    int64
}

// Split is one range of the partition column ("col BETWEEN lo AND hi"),
// or the whole table when the scan is not partitioned.
type Split struct {
	Index      int
	Partitions int
	Lower      int64
	Upper      int64
	ranged     bool
}

func (s Split) String() string {
	if !s.ranged {
		return "jdbc-0"
	}
	return fmt.Sprintf("jdbc-%d[%d..%d]", s.Index, s.Lower, s.Upper)
}

var (
	_ connector.Source         = (*Source)(nil)
	_ connector.FilterSource   = (*Source)(nil)
	_ connector.FilterAccepter = (*Source)(nil)
	_ connector.LimitSource    = (*Source)(nil)
)

func newSource(t *tableOptions) *Source { return &Source{t: t, limit: -1} }

// Bounded is true: a jdbc table is read once, as Flink's bounded scan.
func (s *Source) Bounded() bool { return true }

// ChangelogMode is insert-only.
func (s *Source) ChangelogMode() types.ChangelogMode { return types.InsertOnlyMode }

// AppliesLimit reports that ReadSpec.Limit becomes the query's LIMIT.
func (s *Source) AppliesLimit() bool { return true }

// ApplyFilters keeps the conjuncts it can write in the dialect's SQL
// (comparisons, IS [NOT] NULL, LIKE, IN, AND, OR, NOT over columns and
// literals of the types Flink's JDBC filter pushdown binds) and reports
// them exact: the database evaluates them and the Filter above the scan
// drops them. With 'filter.handling.policy' = 'NEVER' nothing is pushed.
func (s *Source) ApplyFilters(filters []*connector.Predicate) []bool {
	exact := make([]bool, len(filters))
	s.accepted = make([]bool, len(filters))
	if !s.t.filterPushdown {
		return exact
	}
	for i, f := range filters {
		if _, ok := s.render(f, &argList{d: s.t.endpoint.Dialect}); ok {
			s.filters = append(s.filters, f)
			exact[i] = true
			s.accepted[i] = true
		}
	}
	return exact
}

// AcceptedFilters is the exact list of the last ApplyFilters.
func (s *Source) AcceptedFilters() []bool { return s.accepted }

// argList numbers placeholders and collects their arguments.
type argList struct {
	d    *Dialect
	args []any
}

func (a *argList) add(v any, t *types.DataType) string {
	a.args = append(a.args, toDriver(a.d, v, t))
	return a.d.Placeholder(len(a.args))
}

// pushableLiteral lists the column types whose literals Flink's JDBC
// filter pushdown binds as statement parameters.
func pushableLiteral(t *types.DataType) bool {
	switch t.Root {
	case types.Char, types.VarChar, types.Boolean, types.DecimalRoot, types.TinyInt, types.SmallInt,
		types.Integer, types.BigInt, types.Float, types.Double, types.DateRoot, types.TimeRoot, types.TimestampRoot:
		return true
	}
	return false
}

// render writes p as SQL in Flink's shape: "(col > $1)", "(col IS NULL)",
// "((a = $1) AND (b < $2))".
func (s *Source) render(p *connector.Predicate, a *argList) (string, bool) {
	d := s.t.endpoint.Dialect
	switch p.Op {
	case connector.OpAnd, connector.OpOr:
		if len(p.Args) < 2 {
			return "", false
		}
		out, ok := s.render(p.Args[0], a)
		if !ok {
			return "", false
		}
		for _, arg := range p.Args[1:] {
			r, ok := s.render(arg, a)
			if !ok {
				return "", false
			}
			out = "(" + out + " " + string(p.Op) + " " + r + ")"
		}
		return out, true
	case connector.OpNot:
		if len(p.Args) != 1 {
			return "", false
		}
		r, ok := s.render(p.Args[0], a)
		if !ok {
			return "", false
		}
		return "(NOT " + r + ")", true
	}
	if p.Column < 0 || p.Column >= len(s.t.physNames) {
		return "", false
	}
	col := d.Quote(s.t.physNames[p.Column])
	ct := s.t.physTypes[p.Column]
	switch p.Op {
	case connector.OpIsNull, connector.OpIsNotNull:
		return "(" + col + " " + string(p.Op) + ")", true
	case connector.OpEq, connector.OpNotEq, connector.OpLess, connector.OpLessEq, connector.OpGreater, connector.OpGreaterEq:
		if !pushableLiteral(ct) || p.Value == nil {
			return "", false
		}
		return "(" + col + " " + string(p.Op) + " " + a.add(p.Value, ct) + ")", true
	case connector.OpLike:
		if !ct.IsString() {
			return "", false
		}
		if _, ok := p.Value.(string); !ok {
			return "", false
		}
		return "(" + col + " LIKE " + a.add(p.Value, ct) + ")", true
	case connector.OpIn:
		if !pushableLiteral(ct) || len(p.Values) == 0 {
			return "", false
		}
		ph := make([]string, len(p.Values))
		for i, v := range p.Values {
			if v == nil {
				return "", false
			}
			ph[i] = a.add(v, ct)
		}
		return "(" + col + " IN (" + strings.Join(ph, ", ") + "))", true
	}
	return "", false
}

// Splits lists one split per partition of a partitioned scan, with
// Flink's range arithmetic (JdbcNumericBetweenParametersProvider.ofBatchNum):
// the range [lower, upper] is cut into num ranges of ceil(count/num)
// values, the last ones one value shorter so that they end at upper.
func (s *Source) Splits(context.Context) ([]connector.Split, error) {
	if s.t.partColumn == "" {
		return []connector.Split{Split{}}, nil
	}
	ranges := partitionRanges(s.t.partLower, s.t.partUpper, s.t.partNum)
	out := make([]connector.Split, len(ranges))
	for i, r := range ranges {
		out[i] = Split{Index: i, Partitions: len(ranges), Lower: r[0], Upper: r[1], ranged: true}
	}
	return out, nil
}

// partitionRanges is Flink's JdbcNumericBetweenParametersProvider with
// ofBatchNum(num).
func partitionRanges(lower, upper int64, num int) [][2]int64 {
	count := float64(upper) - float64(lower) + 1
	n := int64(num)
	if float64(n) > count {
		n = int64(count)
	}
	size := int64(math.Ceil(count / float64(n)))
	big := int64(count) - (size-1)*n
	out := make([][2]int64, 0, n)
	start := lower
	for i := int64(0); i < n-1; i++ {
		end := start + size - 1
		if i >= big {
			end--
		}
		out = append(out, [2]int64{start, end})
		start = end + 1
	}
	return append(out, [2]int64{start, upper})
}

// Query is the SELECT a split runs and its arguments: Flink's
// "SELECT cols FROM t WHERE (col BETWEEN ? AND ?) AND (filter)... LIMIT n"
// with the dialect's placeholders.
func (s *Source) Query(split connector.Split, spec connector.ReadSpec) (string, []any) {
	d := s.t.endpoint.Dialect
	cols := make([]string, len(spec.Columns))
	for i, c := range spec.Columns {
		cols[i] = s.t.physNames[c]
	}
	q := d.SelectStatement(s.t.dbTable, cols, nil)
	a := &argList{d: d}
	var preds []string
	if sp, ok := split.(Split); ok && sp.ranged {
		lo := a.add(sp.Lower, nil)
		hi := a.add(sp.Upper, nil)
		preds = append(preds, d.Quote(s.t.partColumn)+" BETWEEN "+lo+" AND "+hi)
	}
	for _, f := range s.filters {
		r, _ := s.render(f, a)
		preds = append(preds, r)
	}
	if len(preds) > 0 {
		for i := range preds {
			preds[i] = "(" + preds[i] + ")"
		}
		q += " WHERE " + strings.Join(preds, " AND ")
	}
	if spec.Limit >= 0 {
		q += " " + d.LimitClause(spec.Limit)
	}
	return q, a.args
}

// Open connects and starts the split's query.
func (s *Source) Open(ctx context.Context, split connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	if len(spec.Metadata) > 0 {
		return nil, s.t.errorf("the jdbc connector has no metadata columns (asked for %s)", strings.Join(spec.Metadata, ", "))
	}
	q, args := s.Query(split, spec)
	c, err := connect(ctx, s.t)
	if err != nil {
		return nil, err
	}
	ts := make([]*types.DataType, len(spec.Columns))
	names := make([]string, len(spec.Columns))
	for i, col := range spec.Columns {
		ts[i], names[i] = s.t.physTypes[col], s.t.physNames[col]
	}
	// the query's own context: Close cancels it, so that a reader closed
	// before the end (a LIMIT above, a cancelled job) stops the query
	// instead of draining the rest of the result
	qctx, cancel := context.WithCancel(ctx)
	rows, err := c.query(qctx, q, args, queryMode{fetchSize: s.t.fetchSize, inTx: !s.t.autoCommit})
	if err != nil {
		cancel()
		c.close()
		if ctx.Err() != nil {
			// cancelled: the server's "canceling statement" is not a failure
			return nil, ctx.Err()
		}
		return nil, s.t.queryError("SELECT", err)
	}
	r := &reader{t: s.t, c: c, rows: rows, names: names, ts: ts, split: split.String(), cancel: cancel}
	if len(ts) > 0 {
		dbCols := rows.columns()
		for i := range ts {
			if err := s.t.checkColumnType(names[i], dbCols[i].typ, ts[i]); err != nil {
				cancel()
				rows.close()
				c.close()
				return nil, err
			}
		}
		if rr, ok := rows.(rawRows); ok {
			if r.fast = fastDecoders(rr.fieldDescriptions(), dbCols, ts); r.fast != nil {
				r.raw = rr
			}
		}
	}
	return r, nil
}

// readerBatchRows is the most rows per batch a reader returns.
const readerBatchRows = 4096

type reader struct {
	t      *tableOptions
	c      conn
	rows   resultRows
	names  []string
	ts     []*types.DataType
	split  string
	fast   []rawDecoder // PostgreSQL fast path, nil for the general one
	raw    rawRows
	cancel context.CancelFunc
	n      int64
	done   bool
	closed bool
}

func (r *reader) Next(ctx context.Context) (*types.Batch, error) {
	if r.done {
		return nil, io.EOF
	}
	if r.fast != nil {
		return r.nextFast(ctx)
	}
	bb := types.NewBatchBuilder(r.ts)
	conv := make([]any, len(r.ts))
	deadline := time.Now().Add(200 * time.Millisecond)
	for bb.Len() < readerBatchRows {
		if !r.rows.next() {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := r.rows.err(); err != nil {
				return nil, r.t.queryError("SELECT", err)
			}
			r.done = true
			break
		}
		r.n++
		if len(r.ts) == 0 {
			_ = bb.Append(types.Insert, nil)
			continue
		}
		vals, err := r.rows.values()
		if err != nil {
			return nil, r.t.queryError("SELECT", err)
		}
		for i, v := range vals {
			x, err := toEngine(v, r.ts[i])
			if err != nil {
				return nil, &connector.DataError{File: fmt.Sprintf("%s table '%s' (split %s)", r.t.endpoint.Dialect.Name, r.t.dbTable, r.split), Line: r.n, Field: r.names[i], Msg: err.Error()}
			}
			conv[i] = x
		}
		if err := bb.Append(types.Insert, conv); err != nil {
			return nil, r.t.errorf("row %d: %v", r.n, err)
		}
		if bb.Len()%256 == 0 && time.Now().After(deadline) {
			break
		}
	}
	if bb.Len() == 0 {
		r.Close()
		return nil, io.EOF
	}
	return bb.Build(), nil
}

func (r *reader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if !r.done {
		r.cancel()
	}
	r.rows.close()
	r.c.close()
	r.cancel()
	return nil
}

// nextFast decodes wire values straight into Arrow builders.
func (r *reader) nextFast(ctx context.Context) (*types.Batch, error) {
	bs := make([]array.Builder, len(r.ts))
	for i, t := range r.ts {
		bs[i] = array.NewBuilder(memory.DefaultAllocator, types.ToArrow(t))
		bs[i].Reserve(readerBatchRows)
	}
	n := 0
	for n < readerBatchRows {
		if !r.rows.next() {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := r.rows.err(); err != nil {
				return nil, r.t.queryError("SELECT", err)
			}
			r.done = true
			break
		}
		r.n++
		n++
		for i, raw := range r.raw.rawValues() {
			if raw == nil {
				bs[i].AppendNull()
				continue
			}
			if err := r.fast[i](bs[i], raw); err != nil {
				return nil, &connector.DataError{File: fmt.Sprintf("%s table '%s' (split %s)", r.t.endpoint.Dialect.Name, r.t.dbTable, r.split), Line: r.n, Field: r.names[i], Msg: err.Error()}
			}
		}
	}
	if n == 0 {
		for _, b := range bs {
			b.Release()
		}
		r.Close()
		return nil, io.EOF
	}
	cols := make([]arrow.Array, len(bs))
	for i, b := range bs {
		cols[i] = b.NewArray()
		b.Release()
	}
	return types.NewBatch(cols, nil, n), nil
}
