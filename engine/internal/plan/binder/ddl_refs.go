package binder

import (
	"github.com/riffle-sql/riffle/engine/sql"
)

// ReferencedColumns lists the columns an expression of a table's schema
// (a computed column or a watermark expression, as stored in the catalog)
// refers to, in order of first use: the first part of every identifier
// (a nested field a.b refers to column a).
func ReferencedColumns(exprText string) ([]string, error) {
	e, err := sql.ParseExpr(exprText)
	if err != nil {
		return nil, err
	}
	var names []string
	seen := map[string]bool{}
	walkSQL(e, func(x sql.Expr) bool {
		if id, ok := x.(*sql.Identifier); ok && len(id.Parts) > 0 {
			n := id.Parts[0].Name
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
		return true
	})
	return names, nil
}
