package table

import (
	"errors"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/sql"
)

func (x *execution) createFunction(cf *sql.CreateFunction) (*TableResult, error) {
	t := x.env
	lang := cf.Language
	if lang == "" {
		lang = "GO"
	}
	if lang != "GO" && lang != "JAVA" && lang != "SCALA" {
		return nil, errorf("Unsupported language %s for function %s: Riffle runs Go functions", lang, cf.Name)
	}
	impl, ok := lookupGoFunction(cf.Class)
	if !ok {
		return nil, errorf("Function class '%s' is not a registered Go function; register it with table.RegisterGoFunction", cf.Class)
	}
	if cf.System {
		name := strings.ToLower(cf.Name.Parts[len(cf.Name.Parts)-1].Name)
		t.funcs.mu.Lock()
		defer t.funcs.mu.Unlock()
		if _, exists := t.funcs.tempSystem[name]; exists && !cf.IfNotExists {
			return nil, errorf("Could not register temporary system function. A function named '%s' does already exist.", name)
		}
		t.funcs.tempSystem[name] = impl
		return okResult(), nil
	}
	id, err := x.qualify(cf.Name)
	if err != nil {
		return nil, err
	}
	id.Object = strings.ToLower(id.Object)
	if cf.Temporary {
		t.funcs.mu.Lock()
		defer t.funcs.mu.Unlock()
		if _, exists := t.funcs.tempCat[id]; exists && !cf.IfNotExists {
			return nil, errorf("Could not register temporary catalog function. A function '%s' does already exist.", id)
		}
		t.funcs.tempCat[id] = impl
		return okResult(), nil
	}
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return nil, err
	}
	if err := c.CreateFunction(id.Path(), &catalog.Function{ClassName: cf.Class, Language: lang}, cf.IfNotExists); err != nil {
		return nil, err
	}
	return okResult(), nil
}

func (x *execution) dropFunction(d *sql.Drop) (*TableResult, error) {
	t := x.env
	if d.System {
		name := strings.ToLower(d.Name.Parts[len(d.Name.Parts)-1].Name)
		t.funcs.mu.Lock()
		defer t.funcs.mu.Unlock()
		if _, ok := t.funcs.tempSystem[name]; !ok {
			if d.IfExists {
				return okResult(), nil
			}
			return nil, errorf("Temporary system function %s doesn't exist", name)
		}
		delete(t.funcs.tempSystem, name)
		return okResult(), nil
	}
	id, err := x.qualify(d.Name)
	if err != nil {
		return nil, err
	}
	id.Object = strings.ToLower(id.Object)
	if d.Temporary {
		t.funcs.mu.Lock()
		defer t.funcs.mu.Unlock()
		if _, ok := t.funcs.tempCat[id]; !ok {
			if d.IfExists {
				return okResult(), nil
			}
			return nil, errorf("Temporary catalog function %s doesn't exist", id)
		}
		delete(t.funcs.tempCat, id)
		return okResult(), nil
	}
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return nil, err
	}
	if err := c.DropFunction(id.Path(), d.IfExists); err != nil {
		var ne *catalog.FunctionNotExistError
		if errors.As(err, &ne) {
			return nil, errorf("Function %s.%s does not exist in Catalog %s.", id.Database, id.Object, id.Catalog)
		}
		return nil, err
	}
	return okResult(), nil
}
