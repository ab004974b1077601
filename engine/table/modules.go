package table

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/riffle-sql/riffle/engine/expr"
)

// Module provides functions that are treated as built-in (system)
// functions (PyFlink's Module). Modules are loaded into a
// TableEnvironment under a name; the used ones are searched in order when
// a function name is resolved, after temporary system functions.
type Module interface {
	// ListFunctions lists the names of the module's functions.
	ListFunctions() []string
	// FunctionDefinition returns the function of that name
	// (case-insensitive), if the module has one.
	FunctionDefinition(name string) (*expr.Function, bool)
}

// CoreModule is Flink's "core" module: all built-in functions. Every
// TableEnvironment starts with it loaded and used.
type CoreModule struct{}

// ListFunctions implements Module.
func (CoreModule) ListFunctions() []string {
	names := expr.Builtins.Names()
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToLower(n)
	}
	return out
}

// FunctionDefinition implements Module.
func (CoreModule) FunctionDefinition(name string) (*expr.Function, bool) {
	return expr.Builtins.Lookup(name)
}

// FunctionModule is a Module of Go functions, for embedding programs that
// want to ship a set of functions as a module:
//
//	m := table.NewFunctionModule(table.UDF(myFunc, table.WithName("my_func")))
//	env.LoadModule("mine", m)
type FunctionModule struct {
	funcs map[string]*expr.Function
	err   error
}

// NewFunctionModule builds a module of user-defined functions, named by
// their Name.
func NewFunctionModule(fns ...*UserDefinedFunction) *FunctionModule {
	m := &FunctionModule{funcs: map[string]*expr.Function{}}
	for _, f := range fns {
		fn, err := f.function()
		if err != nil {
			if m.err == nil {
				m.err = err
			}
			continue
		}
		m.funcs[strings.ToLower(f.name)] = fn
	}
	return m
}

// Err reports a function that could not be added.
func (m *FunctionModule) Err() error { return m.err }

// ListFunctions implements Module.
func (m *FunctionModule) ListFunctions() []string {
	out := make([]string, 0, len(m.funcs))
	for n := range m.funcs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// FunctionDefinition implements Module.
func (m *FunctionModule) FunctionDefinition(name string) (*expr.Function, bool) {
	f, ok := m.funcs[strings.ToLower(name)]
	return f, ok
}

// ModuleEntry is a loaded module's name and whether it is used (PyFlink's
// ModuleEntry).
type ModuleEntry struct {
	name string
	used bool
}

// Name returns the module's name (PyFlink's name).
func (e ModuleEntry) Name() string { return e.name }

// Used reports whether the module is used (PyFlink's used).
func (e ModuleEntry) Used() bool { return e.used }

// String renders "name(used)" or "name(unused)".
func (e ModuleEntry) String() string {
	if e.used {
		return e.name + "(used)"
	}
	return e.name + "(unused)"
}

// ModuleFactory creates a module for LOAD MODULE name WITH (options).
type ModuleFactory func(options map[string]string) (Module, error)

var moduleFactories = struct {
	sync.RWMutex
	m map[string]ModuleFactory
}{m: map[string]ModuleFactory{"core": func(map[string]string) (Module, error) { return CoreModule{}, nil }}}

// RegisterModuleFactory makes a module type loadable with the SQL
// statement LOAD MODULE identifier [WITH (...)] (Flink's ModuleFactory).
func RegisterModuleFactory(identifier string, f ModuleFactory) {
	moduleFactories.Lock()
	moduleFactories.m[strings.ToLower(identifier)] = f
	moduleFactories.Unlock()
}

func moduleFactory(identifier string) (ModuleFactory, []string, bool) {
	moduleFactories.RLock()
	defer moduleFactories.RUnlock()
	f, ok := moduleFactories.m[strings.ToLower(identifier)]
	var ids []string
	for k := range moduleFactories.m {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	return f, ids, ok
}

// moduleManager keeps the loaded modules in load order and the used ones
// in use order (Flink's ModuleManager).
type moduleManager struct {
	mu     sync.RWMutex
	loaded map[string]Module
	order  []string // load order
	used   []string // resolution order
}

func newModuleManager() *moduleManager {
	return &moduleManager{loaded: map[string]Module{"core": CoreModule{}}, order: []string{"core"}, used: []string{"core"}}
}

func (m *moduleManager) load(name string, mod Module) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if name == "" || mod == nil {
		return errorf("A module needs a name and an implementation")
	}
	if _, ok := m.loaded[name]; ok {
		return errorf("A module with name '%s' already exists", name)
	}
	m.loaded[name] = mod
	m.order = append(m.order, name)
	m.used = append(m.used, name)
	return nil
}

func (m *moduleManager) unload(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.loaded[name]; !ok {
		return errorf("No module with name '%s' exists", name)
	}
	delete(m.loaded, name)
	m.order = remove(m.order, name)
	m.used = remove(m.used, name)
	return nil
}

func remove(list []string, name string) []string {
	var out []string
	for _, n := range list {
		if n != name {
			out = append(out, n)
		}
	}
	return out
}

func (m *moduleManager) use(names []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	seen := map[string]bool{}
	for _, n := range names {
		if _, ok := m.loaded[n]; !ok {
			return errorf("Module %s does not exist", n)
		}
		if seen[n] {
			return errorf("Module %s appears more than once", n)
		}
		seen[n] = true
	}
	m.used = append([]string(nil), names...)
	return nil
}

func (m *moduleManager) usedNames() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return append([]string(nil), m.used...)
}

func (m *moduleManager) entries() []ModuleEntry {
	m.mu.RLock()
	defer m.mu.RUnlock()
	used := map[string]bool{}
	for _, n := range m.used {
		used[n] = true
	}
	var out []ModuleEntry
	// used modules in use order, then unused ones in load order (Flink's
	// listFullModules)
	for _, n := range m.used {
		out = append(out, ModuleEntry{n, true})
	}
	for _, n := range m.order {
		if !used[n] {
			out = append(out, ModuleEntry{n, false})
		}
	}
	return out
}

// lookup finds a function in the used modules, in order.
func (m *moduleManager) lookup(name string) (*expr.Function, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, n := range m.used {
		if f, ok := m.loaded[n].FunctionDefinition(name); ok {
			return f, true
		}
	}
	return nil, false
}

// functionNames lists the functions of the used modules.
func (m *moduleManager) functionNames() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	set := map[string]bool{}
	for _, n := range m.used {
		for _, f := range m.loaded[n].ListFunctions() {
			set[strings.ToLower(f)] = true
		}
	}
	return sortedStrings(set)
}

// LoadModule loads a module under a unique name; it is appended to the
// used modules (PyFlink's load_module). A duplicate name is an error.
func (t *TableEnvironment) LoadModule(name string, module Module) error {
	return t.modules.load(name, module)
}

// UnloadModule unloads a module (PyFlink's unload_module); an unknown
// name is an error.
func (t *TableEnvironment) UnloadModule(name string) error { return t.modules.unload(name) }

// UseModules sets the used modules and their resolution order (PyFlink's
// use_modules); an unknown or repeated name is an error. Loaded modules
// not listed stay loaded but unused.
func (t *TableEnvironment) UseModules(names ...string) error { return t.modules.use(names) }

// ListModules lists the used modules in resolution order (PyFlink's
// list_modules).
func (t *TableEnvironment) ListModules() []string { return t.modules.usedNames() }

// ListFullModules lists all loaded modules with their used flag, used
// ones first in resolution order (PyFlink's list_full_modules).
func (t *TableEnvironment) ListFullModules() []ModuleEntry { return t.modules.entries() }

// loadModuleSQL runs LOAD MODULE name WITH (options).
func (t *TableEnvironment) loadModuleSQL(name string, options map[string]string) error {
	id := name
	if v, ok := options["type"]; ok {
		id = v
	}
	f, ids, ok := moduleFactory(id)
	if !ok {
		return fmt.Errorf("Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.ModuleFactory' in the classpath.\n\nAvailable factory identifiers are:\n\n%s", id, strings.Join(ids, "\n"))
	}
	m, err := f(options)
	if err != nil {
		return err
	}
	return t.LoadModule(name, m)
}
