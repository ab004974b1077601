package types

import (
	"fmt"
	"strings"
)

// RowKind is the kind of change a row describes in a changelog (Flink's
// org.apache.flink.types.RowKind). Its byte values match Flink's.
type RowKind uint8

// The four row kinds.
const (
	Insert       RowKind = 0 // +I
	UpdateBefore RowKind = 1 // -U
	UpdateAfter  RowKind = 2 // +U
	Delete       RowKind = 3 // -D
)

// ShortString returns "+I", "-U", "+U" or "-D".
func (k RowKind) ShortString() string {
	switch k {
	case Insert:
		return "+I"
	case UpdateBefore:
		return "-U"
	case UpdateAfter:
		return "+U"
	case Delete:
		return "-D"
	}
	return "??"
}

// String returns Flink's enum name: INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE.
func (k RowKind) String() string {
	switch k {
	case Insert:
		return "INSERT"
	case UpdateBefore:
		return "UPDATE_BEFORE"
	case UpdateAfter:
		return "UPDATE_AFTER"
	case Delete:
		return "DELETE"
	}
	return fmt.Sprintf("RowKind(%d)", uint8(k))
}

// IsAccumulate reports +I and +U (rows that add to a result).
func (k RowKind) IsAccumulate() bool { return k == Insert || k == UpdateAfter }

// IsRetract reports -U and -D (rows that withdraw a previous one).
func (k RowKind) IsRetract() bool { return k == UpdateBefore || k == Delete }

// ParseRowKind parses a short string ("+I") or enum name ("INSERT").
func ParseRowKind(s string) (RowKind, error) {
	switch strings.ToUpper(s) {
	case "+I", "INSERT":
		return Insert, nil
	case "-U", "UPDATE_BEFORE":
		return UpdateBefore, nil
	case "+U", "UPDATE_AFTER":
		return UpdateAfter, nil
	case "-D", "DELETE":
		return Delete, nil
	}
	return 0, fmt.Errorf("unknown row kind %q", s)
}

// Row is one row of a table with its RowKind (PyFlink's pyflink.common.Row).
//
// Values are Go values of the column types (see the package's value
// conventions in values.go); nil is SQL NULL. Names, when set, give the
// field names for access by name (Row(name='Alice', age=11) in PyFlink);
// positional rows leave it nil. Names may be shared by many rows (the rows
// of one query result share one slice, as Copy's copy shares its
// original's): SetFieldNames gives a row names of its own, a write into
// Names in place changes every row that shares it.
type Row struct {
	Kind   RowKind
	Values []any
	Names  []string
}

// NewRow builds an INSERT row from positional values.
func NewRow(values ...any) *Row { return &Row{Kind: Insert, Values: values} }

// NewRowWithKind builds a row of the given kind.
func NewRowWithKind(kind RowKind, values ...any) *Row { return &Row{Kind: kind, Values: values} }

// NewNamedRow builds an INSERT row with field names; names and values must
// have the same length.
func NewNamedRow(names []string, values []any) *Row {
	return &Row{Kind: Insert, Values: values, Names: names}
}

// Arity is the number of fields.
func (r *Row) Arity() int { return len(r.Values) }

// Field returns the i-th value (nil for NULL). It panics if i is out of range.
func (r *Row) Field(i int) any { return r.Values[i] }

// Get returns the value of the named field and whether the name exists.
func (r *Row) Get(name string) (any, bool) {
	for i, n := range r.Names {
		if n == name {
			return r.Values[i], true
		}
	}
	return nil, false
}

// AsDict returns the named fields as a map (PyFlink's Row.as_dict); nil
// when the row has no names.
func (r *Row) AsDict() map[string]any {
	if r.Names == nil {
		return nil
	}
	m := make(map[string]any, len(r.Names))
	for i, n := range r.Names {
		m[n] = r.Values[i]
	}
	return m
}

// Copy returns a copy of the row (values are shared, the slice is not).
func (r *Row) Copy() *Row {
	c := &Row{Kind: r.Kind, Values: append([]any(nil), r.Values...), Names: r.Names}
	return c
}

// String renders the row as Flink's Row.toString does: "+I[1, Alice, null]".
func (r *Row) String() string {
	var b strings.Builder
	b.WriteString(r.Kind.ShortString())
	b.WriteByte('[')
	for i, v := range r.Values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(FormatValue(v))
	}
	b.WriteByte(']')
	return b.String()
}

// Equal reports whether two rows have the same kind and equal values.
func (r *Row) Equal(o *Row) bool {
	if r.Kind != o.Kind || len(r.Values) != len(o.Values) {
		return false
	}
	for i := range r.Values {
		if !ValuesEqual(r.Values[i], o.Values[i]) {
			return false
		}
	}
	return true
}
