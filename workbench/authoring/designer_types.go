package authoring

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// TypeParam is one numeric parameter of a data type in the type picker.
type TypeParam struct {
	Name     string
	Min, Max int
	// Default is Flink's value when the parameter is left out.
	Default int
}

// TypeChoice is one entry of the type picker.
type TypeChoice struct {
	Name   string
	Params []TypeParam
	// Complex types (ARRAY, MAP, MULTISET, ROW, INTERVAL) are written as
	// text, e.g. ARRAY<INT> or ROW<a INT, b STRING>.
	Complex bool
	// Example is a template for complex types.
	Example string
}

// TypeChoices lists the types the designer offers, in Flink's order.
func TypeChoices() []TypeChoice {
	length := func(def int) []TypeParam {
		return []TypeParam{{Name: "length", Min: 1, Max: types.MaxLength, Default: def}}
	}
	prec := func(def int) []TypeParam {
		return []TypeParam{{Name: "precision", Min: 0, Max: types.MaxTimePrecision, Default: def}}
	}
	return []TypeChoice{
		{Name: "BOOLEAN"}, {Name: "TINYINT"}, {Name: "SMALLINT"}, {Name: "INT"}, {Name: "BIGINT"},
		{Name: "FLOAT"}, {Name: "DOUBLE"},
		{Name: "DECIMAL", Params: []TypeParam{{Name: "precision", Min: 1, Max: types.MaxDecimalPrecision, Default: 10}, {Name: "scale", Min: 0, Max: types.MaxDecimalPrecision, Default: 0}}},
		{Name: "CHAR", Params: length(1)}, {Name: "VARCHAR", Params: length(1)}, {Name: "STRING"},
		{Name: "BINARY", Params: length(1)}, {Name: "VARBINARY", Params: length(1)}, {Name: "BYTES"},
		{Name: "DATE"}, {Name: "TIME", Params: prec(0)}, {Name: "TIMESTAMP", Params: prec(6)}, {Name: "TIMESTAMP_LTZ", Params: prec(6)},
		{Name: "ARRAY", Complex: true, Example: "ARRAY<INT>"},
		{Name: "MAP", Complex: true, Example: "MAP<STRING, INT>"},
		{Name: "MULTISET", Complex: true, Example: "MULTISET<STRING>"},
		{Name: "ROW", Complex: true, Example: "ROW<a INT, b STRING>"},
		{Name: "INTERVAL", Complex: true, Example: "INTERVAL DAY TO SECOND(3)"},
		{Name: "VARIANT"},
	}
}

// TypeSpec is a column type as edited in the picker: a simple type with
// its parameters, or the text of a complex type.
type TypeSpec struct {
	// Name is a TypeChoices name; Params its parameters (empty: Flink's
	// defaults).
	Name   string
	Params []int
	// Text, when set, is the full type (complex types) and wins over
	// Name and Params.
	Text string
}

// SQL renders the type as written in DDL.
func (t TypeSpec) SQL() string {
	if t.Text != "" {
		return t.Text
	}
	if len(t.Params) == 0 {
		return t.Name
	}
	ps := make([]string, len(t.Params))
	for i, p := range t.Params {
		ps[i] = strconv.Itoa(p)
	}
	return t.Name + "(" + strings.Join(ps, ", ") + ")"
}

// Resolve checks the type as Flink's DDL does and returns it (nullable).
func (t TypeSpec) Resolve() (*types.DataType, error) {
	s := t.SQL()
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("choose a type")
	}
	if t.Text == "" {
		for _, c := range TypeChoices() {
			if c.Name != t.Name {
				continue
			}
			if len(t.Params) > len(c.Params) {
				return nil, fmt.Errorf("%s takes at most %d parameter(s)", c.Name, len(c.Params))
			}
			for i, p := range t.Params {
				if p < c.Params[i].Min || p > c.Params[i].Max {
					return nil, fmt.Errorf("%s %s must be between %d and %d", c.Name, c.Params[i].Name, c.Params[i].Min, c.Params[i].Max)
				}
			}
		}
	}
	dt, err := sql.ParseDataType(s)
	if err != nil {
		return nil, fmt.Errorf("type %s: %v", s, err)
	}
	if dt.NotNull {
		return nil, fmt.Errorf("type %s: use the NOT NULL box instead of writing NOT NULL", s)
	}
	return table.DataTypeOf(dt)
}

// TypeSpecOf describes a resolved type for the picker (nullability and
// time attributes are left out: the designer has its own NOT NULL box).
func TypeSpecOf(t *types.DataType) TypeSpec {
	t = t.WithNullable(true).WithTimeAttr(types.NoTimeAttr)
	switch t.Root {
	case types.Boolean, types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.Float, types.Double, types.DateRoot, types.VariantRoot:
		return TypeSpec{Name: t.Root.String()}
	case types.DecimalRoot:
		return TypeSpec{Name: "DECIMAL", Params: []int{t.Precision, t.Scale}}
	case types.Char, types.VarChar, types.Binary, types.VarBinary:
		if t.Length == types.MaxLength && t.Root == types.VarChar {
			return TypeSpec{Name: "STRING"}
		}
		if t.Length == types.MaxLength && t.Root == types.VarBinary {
			return TypeSpec{Name: "BYTES"}
		}
		return TypeSpec{Name: t.Root.String(), Params: []int{t.Length}}
	case types.TimeRoot, types.TimestampRoot, types.TimestampLTZRoot:
		return TypeSpec{Name: t.Root.String(), Params: []int{t.Precision}}
	}
	return TypeSpec{Text: t.String()}
}
