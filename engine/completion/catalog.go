package completion

import (
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
)

// Catalog is what completion reads from the engine: the objects in scope
// and the functions (table.CompletionCatalog reads a TableEnvironment's).
// Implementations must be safe to call from a worker goroutine.
type Catalog interface {
	CurrentCatalog() string
	CurrentDatabase() string
	Catalogs() []string
	Databases(catalog string) []string
	// Tables lists the tables and views of a database (temporary ones
	// included).
	Tables(catalog, database string) []Object
	// Table resolves a 1- to 3-part name against the current catalog and
	// database.
	Table(path []string) (*TableMeta, bool)
	// Functions lists the functions callable by name.
	Functions() []Function
}

// Object is a table or view name.
type Object struct {
	Name string
	View bool
}

// Column is a column with its type as Flink prints it.
type Column struct {
	Name string
	Type string
}

// TableMeta describes a resolved table or view.
type TableMeta struct {
	Columns []Column
	// Options are a table's WITH options (nil for views).
	Options map[string]string
}

// Function is a function with the signatures shown next to it.
type Function struct {
	Name       string
	Signatures []string
	Aggregate  bool
}

// notCallable are registry entries that SQL writes as operators or
// keywords, or that only the planner uses.
var notCallable = map[string]bool{"AND": true, "OR": true, "NOT": true, "IN": true, "LIKE": true, "CASE": true,
	"GET_FIELD": true, "ITEM": true, "SUM0": true}

// BuiltinFunctions lists the built-in functions callable by name (not
// those SQL writes as operators or keywords), with their signatures,
// sorted by name: what a Catalog's Functions offers besides the user's.
func BuiltinFunctions() []Function {
	var out []Function
	for _, n := range expr.Builtins.Names() {
		f, ok := expr.Builtins.Lookup(n)
		if !ok || notCallable[n] || !isWord(f.Name) || strings.HasPrefix(n, "UNARY_") || n == "NEGATE" {
			continue
		}
		out = append(out, Function{Name: n, Signatures: f.Signatures, Aggregate: f.Kind == expr.AggregateKind})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func isWord(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
