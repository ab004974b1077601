package types

import (
	"fmt"
	"sort"
	"strings"
)

// PyFlink's Row API on Row: keyword construction, row classes, access by
// name, as_dict and the Python repr.

// RowOfKind builds a row of the given kind from positional values
// (PyFlink's Row.of_kind).
func RowOfKind(kind RowKind, values ...any) *Row { return NewRowWithKind(kind, values...) }

// RowFromKeywords builds a named INSERT row from keyword values, with the
// fields sorted by name as PyFlink's Row(name="Alice", age=11) does: the
// fields are age, name.
func RowFromKeywords(fields map[string]any) *Row {
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	values := make([]any, len(names))
	for i, n := range names {
		values[i] = fields[n]
	}
	return NewNamedRow(names, values)
}

// GetRowKind returns the row's kind (PyFlink's get_row_kind).
func (r *Row) GetRowKind() RowKind { return r.Kind }

// SetRowKind sets the row's kind (PyFlink's set_row_kind).
func (r *Row) SetRowKind(k RowKind) { r.Kind = k }

// SetFieldNames names the fields (PyFlink's set_field_names); names must
// match the arity.
func (r *Row) SetFieldNames(names []string) error {
	if len(names) != len(r.Values) {
		return fmt.Errorf("%d field names for a row of %d fields", len(names), len(r.Values))
	}
	r.Names = append([]string(nil), names...)
	return nil
}

// Contains reports whether the row has a field of that name (PyFlink's
// "name in row").
func (r *Row) Contains(name string) bool {
	_, ok := r.Get(name)
	return ok
}

// AsDictRecursive is AsDict with nested rows converted to maps too
// (PyFlink's as_dict(recursive=True)).
func (r *Row) AsDictRecursive() map[string]any {
	d := r.AsDict()
	for k, v := range d {
		d[k] = dictValue(v)
	}
	return d
}

func dictValue(v any) any {
	switch x := v.(type) {
	case *Row:
		if x.Names != nil {
			return x.AsDictRecursive()
		}
		out := make([]any, len(x.Values))
		for i, e := range x.Values {
			out[i] = dictValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dictValue(e)
		}
		return out
	}
	return v
}

// Repr renders the row as PyFlink's repr does: Row(age=11, name='Alice')
// for a named row, Row(1, 'a') for a positional one.
func (r *Row) Repr() string {
	parts := make([]string, len(r.Values))
	for i, v := range r.Values {
		s := reprValue(v)
		if r.Names != nil && i < len(r.Names) {
			s = r.Names[i] + "=" + s
		}
		parts[i] = s
	}
	return "Row(" + strings.Join(parts, ", ") + ")"
}

func reprValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "\\'") + "'"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case *Row:
		return x.Repr()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = reprValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return FormatValue(v)
}

// RowClass is a row type with named fields that builds rows positionally
// (PyFlink's Person = Row("name", "age"); Person("Alice", 11)).
type RowClass struct{ names []string }

// NewRowClass declares a row class with field names.
func NewRowClass(names ...string) RowClass { return RowClass{names: append([]string(nil), names...)} }

// New builds a row of the class: Person.New("Alice", 11) is
// Row(name='Alice', age=11). Missing values are nil; extra values are an
// error.
func (c RowClass) New(values ...any) (*Row, error) {
	if len(values) > len(c.names) {
		return nil, fmt.Errorf("too many values (%d) for %s", len(values), c)
	}
	vals := make([]any, len(c.names))
	copy(vals, values)
	return NewNamedRow(append([]string(nil), c.names...), vals), nil
}

// Contains reports whether the class has a field of that name (PyFlink's
// "name in Person").
func (c RowClass) Contains(name string) bool {
	for _, n := range c.names {
		if n == name {
			return true
		}
	}
	return false
}

// FieldNames returns the field names.
func (c RowClass) FieldNames() []string { return append([]string(nil), c.names...) }

// String renders PyFlink's repr of a row class, the field names as Python
// string literals: <Row('name', 'age')> (PyFlink 2.3; the 1.14 docs showed
// <Row(name, age)>).
func (c RowClass) String() string {
	parts := make([]string, len(c.names))
	for i, n := range c.names {
		parts[i] = reprValue(n)
	}
	return "<Row(" + strings.Join(parts, ", ") + ")>"
}
