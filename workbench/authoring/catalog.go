package authoring

import (
	"fmt"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// TableInfo is what the builder and the designer know about a table or
// view of the catalog.
type TableInfo struct {
	ID        catalog.ObjectIdentifier
	Kind      catalog.TableKind
	Temporary bool
	Schema    *types.Schema
	// Options, PartitionKeys and Comment describe tables (not views).
	Options       map[string]string
	PartitionKeys []string
	Comment       string
}

// Catalog resolves table names for the builder and the designer.
type Catalog interface {
	// Table resolves a 1- to 3-part name against the current catalog and
	// database.
	Table(path []string) (*TableInfo, error)
	// Streaming reports whether queries run in streaming mode.
	Streaming() bool
}

// EnvCatalog reads tables from a TableEnvironment's catalogs.
func EnvCatalog(env *table.TableEnvironment) Catalog { return envCatalog{env} }

type envCatalog struct{ env *table.TableEnvironment }

func (c envCatalog) Streaming() bool { return c.env.IsStreaming() }

func (c envCatalog) Table(path []string) (*TableInfo, error) {
	m := c.env.Catalogs()
	id, err := m.Qualify(path)
	if err != nil {
		return nil, err
	}
	rt, ok, err := m.GetTable(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("table or view %s does not exist", id)
	}
	info := &TableInfo{ID: rt.ID, Kind: rt.Table.Kind(), Temporary: rt.Temporary, Schema: rt.Table.Schema(),
		Options: rt.Table.Options(), Comment: rt.Table.Comment()}
	if t, ok := rt.Table.(*catalog.Table); ok {
		info.PartitionKeys = t.PartitionKeys
	}
	return info, nil
}

// TimeColumns lists the columns a window can be defined on: in streaming
// mode the rowtime attributes (columns with a watermark), in batch mode
// also every other TIMESTAMP and TIMESTAMP_LTZ column. Rowtime attributes
// come first.
func TimeColumns(s *types.Schema, streaming bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range s.Watermarks {
		if !seen[w.RowtimeAttribute] {
			out = append(out, w.RowtimeAttribute)
			seen[w.RowtimeAttribute] = true
		}
	}
	for _, c := range s.Columns {
		if c.Type.IsRowtime() && !seen[c.Name] {
			out = append(out, c.Name)
			seen[c.Name] = true
		}
	}
	if !streaming {
		for _, c := range s.Columns {
			if c.Type.IsTimestamp() && !seen[c.Name] {
				out = append(out, c.Name)
				seen[c.Name] = true
			}
		}
	}
	return out
}

// Operators lists the filter operators that fit a column type, in menu
// order.
func Operators(t *types.DataType) []Op {
	null := []Op{OpIsNull, OpIsNotNull}
	if t == nil {
		return null
	}
	switch {
	case t.Root == types.Boolean:
		return append([]Op{OpEq, OpNe}, null...)
	case t.IsString():
		return append([]Op{OpEq, OpNe, OpLike, OpNotLike, OpIn, OpNotIn, OpLt, OpLe, OpGt, OpGe, OpBetween, OpNotBetween}, null...)
	case t.IsNumeric(), t.IsDatetime():
		return append([]Op{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe, OpBetween, OpNotBetween, OpIn, OpNotIn}, null...)
	case t.IsBinary():
		return append([]Op{OpEq, OpNe}, null...)
	}
	return null
}

// JoinSuggestion proposes a key column pair for a join.
type JoinSuggestion struct {
	Key JoinKey
	// Score ranks suggestions: 3 same name and type family, 2 a foreign
	// key naming pattern (airport_id ↔ airports.id), 1 the joined table's
	// primary key with a column of the same type.
	Score  int
	Reason string
}

// QualifiedColumn is a column of one of the query's tables.
type QualifiedColumn struct {
	Table  string // the table's qualifier
	Column types.Column
}

// SuggestJoinKeys proposes key pairs for joining a table (its qualifier,
// schema and name) to the columns already in the query, best first.
func SuggestJoinKeys(left []QualifiedColumn, rightName string, right *types.Schema) []JoinSuggestion {
	var out []JoinSuggestion
	pk := map[string]bool{}
	if right.PrimaryKey != nil {
		for _, c := range right.PrimaryKey.Columns {
			pk[c] = true
		}
	}
	rightBase := singular(strings.ToLower(rightName))
	for _, l := range left {
		for _, r := range right.Columns {
			if !sameFamily(l.Column.Type, r.Type) {
				continue
			}
			ln, rn := strings.ToLower(l.Column.Name), strings.ToLower(r.Name)
			leftBase := singular(strings.ToLower(l.Table))
			s := JoinSuggestion{Key: JoinKey{Left: ColumnRef{Table: l.Table, Name: l.Column.Name}, Right: r.Name}}
			switch {
			case ln == rn:
				s.Score, s.Reason = 3, "same name and type"
			case rn == "id" && (ln == rightBase+"_id" || ln == rightBase+"id"),
				ln == "id" && (rn == leftBase+"_id" || rn == leftBase+"id"):
				s.Score, s.Reason = 2, "foreign key name"
			case pk[r.Name]:
				s.Score, s.Reason = 1, "primary key of "+rightName
			default:
				continue
			}
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// singular strips a plural "s" (airports → airport).
func singular(s string) string {
	if strings.HasSuffix(s, "ies") {
		return strings.TrimSuffix(s, "ies") + "y"
	}
	if strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss") {
		return strings.TrimSuffix(s, "s")
	}
	return s
}

// sameFamily reports whether two types can be join keys of each other.
func sameFamily(a, b *types.DataType) bool {
	switch {
	case a.IsNumeric() && b.IsNumeric():
		return a.IsIntegral() == b.IsIntegral()
	case a.IsString() && b.IsString():
		return true
	case a.IsBinary() && b.IsBinary():
		return true
	case a.IsTimestamp() && b.IsTimestamp():
		return true
	}
	return a.Root == b.Root && a.Root != types.RowRoot && a.Root != types.ArrayRoot && a.Root != types.MapRoot
}
