package binder

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Function calls with special binding: the SQL/JSON functions, whose
// clauses become trailing arguments (see engine/expr/fn_json.go), and the
// session functions CURRENT_DATABASE and CURRENT_CATALOG, which are
// constants of the statement.

// specialCall binds n when it needs special treatment; ok is false for
// ordinary calls.
func (b *binder) specialCall(n *sql.FuncCall, sc *scope) (expr.Expr, bool) {
	if len(n.Name.Parts) != 1 {
		return nil, false
	}
	name := strings.ToUpper(n.Name.Parts[0].Name)
	switch name {
	case "CURRENT_DATABASE", "CURRENT_CATALOG":
		if len(n.Args) != 0 {
			b.failAt(n, "Invalid number of arguments to function '%s'. Was expecting 0 arguments, got %d", name, len(n.Args))
		}
		cat, db := b.defaultCat, b.defaultDB
		if cat == "" && b.ctx.Catalogs != nil {
			cat, db = b.ctx.Catalogs.CurrentCatalog(), b.ctx.Catalogs.CurrentDatabase()
		}
		v := db
		if name == "CURRENT_CATALOG" {
			v = cat
		}
		return &expr.Literal{Value: v, T: types.StringType().NotNull()}, true
	case "JSON_VALUE", "JSON_QUERY", "JSON_EXISTS", "JSON_OBJECT", "JSON_ARRAY":
		return b.jsonCall(n, name, sc), true
	}
	return nil, false
}

func jsonSym(s string) expr.Expr { return expr.Symbol(s) }

// jsonCall binds a SQL/JSON function with its clauses as trailing arguments.
func (b *binder) jsonCall(n *sql.FuncCall, name string, sc *scope) expr.Expr {
	j := n.JSON
	if j == nil {
		j = &sql.JSONClauses{}
	}
	var args []expr.Expr
	behavior := func(bh *sql.JSONBehavior, allowed ...string) (expr.Expr, expr.Expr) {
		if bh == nil {
			return jsonSym(""), &expr.Literal{T: types.NullType()}
		}
		ok := false
		for _, a := range allowed {
			if a == bh.Kind {
				ok = true
			}
		}
		if !ok {
			b.failAt(bh, "%s ON ... is not allowed for %s", bh.Kind, name)
		}
		var def expr.Expr = &expr.Literal{T: types.NullType()}
		if bh.Default != nil {
			def = b.expr(bh.Default, sc)
		}
		return jsonSym(bh.Kind), def
	}
	switch name {
	case "JSON_EXISTS", "JSON_VALUE", "JSON_QUERY":
		if len(n.Args) != 2 {
			b.failAt(n, "Invalid number of arguments to function '%s'. Was expecting 2 arguments, got %d", name, len(n.Args))
		}
		args = append(args, b.expr(n.Args[0], sc), b.expr(n.Args[1], sc))
		ret := expr.Expr(&expr.Literal{T: types.NullType()})
		if j.Returning != nil {
			if name == "JSON_EXISTS" {
				b.failAt(j.Returning, "RETURNING is not allowed for JSON_EXISTS")
			}
			ret = &expr.Literal{T: b.dataType(j.Returning)}
		}
		switch name {
		case "JSON_EXISTS":
			if j.OnEmpty != nil {
				b.failAt(j.OnEmpty, "ON EMPTY is not allowed for JSON_EXISTS")
			}
			s, _ := behavior(j.OnError, "TRUE", "FALSE", "UNKNOWN", "ERROR")
			args = append(args, s)
		case "JSON_VALUE":
			es, ed := behavior(j.OnEmpty, "NULL", "ERROR", "DEFAULT")
			rs, rd := behavior(j.OnError, "NULL", "ERROR", "DEFAULT")
			args = append(args, ret, es, ed, rs, rd)
		case "JSON_QUERY":
			w := j.Wrapper
			if w == "" {
				w = "WITHOUT ARRAY"
			}
			es, _ := behavior(j.OnEmpty, "NULL", "ERROR", "EMPTY ARRAY", "EMPTY OBJECT")
			rs, _ := behavior(j.OnError, "NULL", "ERROR", "EMPTY ARRAY", "EMPTY OBJECT")
			args = append(args, ret, jsonSym(w), es, rs)
		}
	case "JSON_OBJECT", "JSON_ARRAY":
		args = append(args, jsonSym(j.OnNull))
		var mask []byte
		var vals []expr.Expr
		for i, a := range n.Args {
			e := b.expr(a, sc)
			isValue := name == "JSON_ARRAY" || i%2 == 1
			raw := byte('0')
			if isValue && isJSONConstructor(a) {
				raw = '1'
			}
			mask = append(mask, raw)
			vals = append(vals, e)
		}
		args = append(args, jsonSym(string(mask)))
		args = append(args, vals...)
	}
	f, _ := expr.Builtins.Lookup(name)
	return b.resolve(n, f, name, args)
}

// isJSONConstructor reports a nested JSON_OBJECT / JSON_ARRAY call, whose
// text is embedded as JSON rather than as a string.
func isJSONConstructor(e sql.Expr) bool {
	f, ok := e.(*sql.FuncCall)
	if !ok || len(f.Name.Parts) != 1 {
		return false
	}
	switch strings.ToUpper(f.Name.Parts[0].Name) {
	case "JSON_OBJECT", "JSON_ARRAY", "JSON_QUERY":
		return true
	}
	return false
}
