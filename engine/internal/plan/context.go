package plan

import (
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
)

// FunctionLookup resolves a (possibly qualified) function name in Flink's
// order: temporary system functions, system (built-in) functions,
// temporary catalog functions, catalog functions. It returns nil, nil when
// nothing matches.
type FunctionLookup func(parts []string) (*expr.Function, error)

// Context is what binding needs from the session.
type Context struct {
	Catalogs  *catalog.Manager
	Functions FunctionLookup
	Config    *config.Configuration
	Streaming bool
	Zone      *time.Location
}

// LookupFunction resolves a function name through Functions, or among the
// built-ins (unqualified names only) when Functions is nil; nil, nil when
// nothing matches.
func (c *Context) LookupFunction(parts []string) (*expr.Function, error) {
	if c.Functions != nil {
		return c.Functions(parts)
	}
	if len(parts) == 1 {
		f, _ := expr.Builtins.Lookup(parts[0])
		return f, nil
	}
	return nil, nil
}
