package authoring

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// StatementError is a statement of a change plan that failed (or, in a
// dry run, would fail).
type StatementError struct {
	// Index is the statement's position in the plan (from 0), Count the
	// number of statements.
	Index, Count int
	Statement    string
	Err          error
}

func (e *StatementError) Error() string {
	return fmt.Sprintf("statement %d of %d (%s): %v", e.Index+1, e.Count, summaryOf(e.Statement), e.Err)
}

func (e *StatementError) Unwrap() error { return e.Err }

// summaryOf is a statement's first line.
func summaryOf(stmt string) string {
	s, _, _ := strings.Cut(strings.TrimSpace(stmt), "\n")
	return strings.TrimSpace(s)
}

// SavedTable is the DDL of a table as it is before a change, to put it
// back when the change fails part-way.
type SavedTable struct {
	Path      []string
	Temporary bool
	// DDL is the table's CREATE statement (as SHOW CREATE TABLE writes it).
	DDL string
}

// SaveTable reads the DDL of the table at path (catalog, database, table)
// from env.
func SaveTable(env *table.TableEnvironment, path []string) (*SavedTable, error) {
	tbl, temporary, err := envTable(env, path)
	if err != nil {
		return nil, err
	}
	id := catalog.ObjectIdentifier{Catalog: path[0], Database: path[1], Object: path[2]}
	return &SavedTable{Path: slices.Clone(path), Temporary: temporary, DDL: table.ShowCreateTable(id, tbl, temporary)}, nil
}

// RestoreStatements drop what is at the saved table's name and create the
// table again from its saved DDL.
func (s *SavedTable) RestoreStatements() []string {
	drop := "DROP "
	if s.Temporary {
		drop += "TEMPORARY "
	}
	return []string{drop + "TABLE IF EXISTS " + pathSQL(s.Path), s.DDL}
}

func envTable(env *table.TableEnvironment, path []string) (*catalog.Table, bool, error) {
	if len(path) != 3 {
		return nil, false, fmt.Errorf("the table name %q is not qualified", strings.Join(path, "."))
	}
	id := catalog.ObjectIdentifier{Catalog: path[0], Database: path[1], Object: path[2]}
	rt, ok, err := env.Catalogs().GetTable(id)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, fmt.Errorf("table %s does not exist", pathSQL(path))
	}
	tbl, ok := rt.Table.(*catalog.Table)
	if !ok {
		return nil, false, fmt.Errorf("%s is a view; the table designer edits tables", pathSQL(path))
	}
	return tbl, rt.Temporary, nil
}

// DryRun runs the design's change plan (Changes) against a scratch copy
// of the original table in a temporary in-memory catalog of env, which is
// removed afterwards: a plan that would fail part-way fails here, before
// anything of the session's table is changed. The error is a
// *StatementError naming the statement of the real plan; names of the
// scratch catalog in the engine's message are those of the real one. A
// new design (CREATE TABLE, one statement) has nothing to dry-run.
func (d *Design) DryRun(env *table.TableEnvironment) error {
	o := d.original
	if o == nil {
		return nil
	}
	tbl, temporary, err := envTable(env, o.Path)
	if err != nil {
		return err
	}
	m := env.Catalogs()
	scratch := "riffle_designer_check"
	for i := 2; slices.Contains(m.ListCatalogs(), scratch); i++ {
		scratch = "riffle_designer_check" + strconv.Itoa(i)
	}
	if err := m.RegisterCatalog(scratch, catalog.NewInMemoryCatalog(scratch, o.Path[1])); err != nil {
		return err
	}
	dbs := []string{o.Path[1]}
	defer func() {
		for _, db := range dbs {
			for _, name := range m.ListTemporary(scratch, db, nil) {
				m.DropTemporaryTable(catalog.ObjectIdentifier{Catalog: scratch, Database: db, Object: name}, nil)
			}
		}
		_ = m.UnregisterCatalog(scratch, true)
	}()
	plan, err := d.changesIn(scratch)
	if err != nil {
		return err
	}
	if p := d.qualifiedPath(); p[1] != o.Path[1] {
		dbs = append(dbs, p[1])
	}
	var setup []string
	for _, db := range dbs[1:] {
		setup = append(setup, "CREATE DATABASE IF NOT EXISTS "+pathSQL([]string{scratch, db}))
	}
	copyID := catalog.ObjectIdentifier{Catalog: scratch, Database: o.Path[1], Object: o.Path[2]}
	setup = append(setup, table.ShowCreateTable(copyID, tbl, temporary))
	for _, st := range setup {
		if _, err := env.ExecuteSQL(st); err != nil {
			return fmt.Errorf("cannot check the change on a copy of the table: %v", err)
		}
	}
	actual, err := d.Changes()
	if err != nil {
		return err
	}
	for i, st := range plan.Statements {
		if _, err := env.ExecuteSQL(st); err != nil {
			msg := strings.ReplaceAll(err.Error(), sql.QuoteIdentIfNeeded(scratch)+".", sql.QuoteIdentIfNeeded(o.Path[0])+".")
			msg = strings.ReplaceAll(msg, scratch+".", o.Path[0]+".")
			return &StatementError{Index: i, Count: len(plan.Statements), Statement: actual.Statements[i], Err: errors.New(msg)}
		}
	}
	return nil
}
