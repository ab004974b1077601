package table

import (
	"fmt"
	"strings"
	"sync"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
)

// functionCatalog resolves function names in Flink's order: temporary
// system functions, built-in (module) functions, temporary catalog
// functions, catalog functions.
type functionCatalog struct {
	env        *TableEnvironment
	mu         sync.RWMutex
	tempSystem map[string]*expr.Function
	tempCat    map[catalog.ObjectIdentifier]*expr.Function
	// inline holds user functions called inline (UserDefinedFunction.Call)
	// under generated keys; they are not listed.
	inline map[string]*expr.Function
}

func newFunctionCatalog(env *TableEnvironment) *functionCatalog {
	return &functionCatalog{env: env, tempSystem: map[string]*expr.Function{}, tempCat: map[catalog.ObjectIdentifier]*expr.Function{},
		inline: map[string]*expr.Function{}}
}

// addInline makes an inline-called user function resolvable by its key.
func (fc *functionCatalog) addInline(key string, f *expr.Function) {
	fc.mu.Lock()
	fc.inline[key] = f
	fc.mu.Unlock()
}

// GoFunctions maps identifiers usable in CREATE FUNCTION ... AS
// 'identifier' [LANGUAGE GO] to Go implementations registered by the
// embedding program (Go has no class loading).
var GoFunctions = struct {
	sync.RWMutex
	m map[string]*expr.Function
}{m: map[string]*expr.Function{}}

// RegisterGoFunction makes a function available to CREATE FUNCTION under
// an identifier.
func RegisterGoFunction(identifier string, f *expr.Function) {
	GoFunctions.Lock()
	GoFunctions.m[identifier] = f
	GoFunctions.Unlock()
}

func lookupGoFunction(identifier string) (*expr.Function, bool) {
	GoFunctions.RLock()
	defer GoFunctions.RUnlock()
	f, ok := GoFunctions.m[identifier]
	return f, ok
}

func (fc *functionCatalog) lookup(parts []string) (*expr.Function, error) {
	if len(parts) == 1 {
		name := strings.ToLower(parts[0])
		fc.mu.RLock()
		f, ok := fc.tempSystem[name]
		if !ok {
			f, ok = fc.inline[parts[0]]
		}
		fc.mu.RUnlock()
		if ok {
			return f, nil
		}
		if f, ok := fc.env.modules.lookup(parts[0]); ok {
			return f, nil
		}
	}
	id, err := fc.env.catalogs.Qualify(parts)
	if err != nil {
		return nil, err
	}
	id.Object = strings.ToLower(id.Object)
	fc.mu.RLock()
	f, ok := fc.tempCat[id]
	fc.mu.RUnlock()
	if ok {
		return f, nil
	}
	c, ok := fc.env.catalogs.GetCatalog(id.Catalog)
	if !ok {
		return nil, nil
	}
	cf, err := c.GetFunction(id.Path())
	if err != nil {
		return nil, nil
	}
	return resolveCatalogFunction(cf, id.Object)
}

func resolveCatalogFunction(cf *catalog.Function, name string) (*expr.Function, error) {
	if f, ok := cf.Impl.(*expr.Function); ok {
		return f, nil
	}
	if f, ok := lookupGoFunction(cf.ClassName); ok {
		return f, nil
	}
	return nil, fmt.Errorf("function %s refers to '%s', which is not a registered Go function (see table.RegisterGoFunction)", name, cf.ClassName)
}

// names lists user-defined function names (temporary system, temporary
// catalog and catalog functions of the current database).
func (fc *functionCatalog) userNames() []string {
	set := map[string]bool{}
	fc.mu.RLock()
	for n := range fc.tempSystem {
		set[n] = true
	}
	cur, db := fc.env.catalogs.CurrentCatalog(), fc.env.catalogs.CurrentDatabase()
	for id := range fc.tempCat {
		if id.Catalog == cur && id.Database == db {
			set[id.Object] = true
		}
	}
	fc.mu.RUnlock()
	if c, ok := fc.env.catalogs.GetCatalog(cur); ok {
		if fs, err := c.ListFunctions(db); err == nil {
			for _, f := range fs {
				set[f] = true
			}
		}
	}
	return sortedStrings(set)
}
