package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/persistence/sqlitecatalog"
)

// The workspace catalog: each workspace owns a persistent catalog (type
// 'riffle', a SQLite file beside the workspace, persistence.CatalogPath),
// registered in the embedded engine as `workspace` and made the current
// catalog (database `default`). Tables, views, functions and databases a
// user creates in the workbench are permanent in it and survive a restart
// without any DDL being replayed: the editor's DDL is no longer recorded
// in the init script, which keeps what a session needs each time (SET,
// temporary objects, other catalogs).
//
// An older workspace (one without settingCatalogMigrated) migrates once:
// the catalog DDL of its init script (CREATE/ALTER/DROP of tables, views,
// functions and databases, with USE statements to qualify them) is
// replayed into the catalog, CREATE TEMPORARY TABLE/VIEW/FUNCTION made
// permanent, because the init script recorded them so that they would be
// there after a restart, which is what a permanent object is; those
// statements then leave the init script (the script as it was is kept in
// settingInitBeforeCatalog) and are not run again. A statement the
// catalog refused stays in the init script and is reported.
//
// A CREATE run again on the embedded engine for an object that exists
// with exactly the definition the statement would give it (a tab run
// again after a restart, an init script's CREATE of a table already in the
// catalog) succeeds and says so instead of failing with "already exists";
// a different definition still fails as in Flink (see rerunUnchanged).

// Settings keys of the workspace catalog.
const (
	settingCatalogMigrated   = "workbench.catalog-migrated" // time of the init script's move into the catalog
	settingInitBeforeCatalog = "workbench.init-script-before-catalog"
)

// workspaceCatalogName is the catalog's name in the embedded engine.
const workspaceCatalogName = "workspace"

// workspaceCatalog is the workbench's state of its workspace catalog.
type workspaceCatalog struct {
	path    string          // the catalog file in use (a private copy when read-only)
	cat     catalog.Catalog // nil when the catalog is off or could not be opened
	copyDir string          // the read-only copy's folder, removed on close
	// sampleScript is the init script as it was before the catalog (see
	// ensureCatalogSampleData); set before the worker starts
	sampleScript string
}

// active reports whether the workspace catalog is registered.
func (w *workspaceCatalog) active() bool { return w != nil && w.cat != nil }

// openWorkspaceCatalog registers the workspace catalog in the embedded
// engine, makes it current and migrates an older workspace's init script
// into it. A read-only workbench works on a copy of the catalog file.
// Failures leave the workbench on default_catalog with its init script as
// before, and are reported in startProblems.
func (wb *Workbench) openWorkspaceCatalog(ctx context.Context, workspacePath string, ws *persistence.Workspace) {
	if wb.opts.NoWorkspaceCatalog {
		return
	}
	path := persistence.CatalogPath(workspacePath)
	_, statErr := os.Stat(path)
	fresh := errors.Is(statErr, os.ErrNotExist)
	wc := &workspaceCatalog{path: path}
	if wb.store.ReadOnly() {
		dir, err := os.MkdirTemp("", "riffle-readonly-catalog-")
		if err != nil {
			wb.startProblems = append(wb.startProblems, "The workspace catalog could not be copied: "+err.Error())
			return
		}
		wc.copyDir, wc.path = dir, filepath.Join(dir, filepath.Base(path))
		if err := sqlitecatalog.Snapshot(ctx, path, wc.path); err != nil {
			os.RemoveAll(dir)
			wb.startProblems = append(wb.startProblems, "The workspace catalog could not be copied: "+err.Error())
			return
		}
	}
	if err := registerWorkspaceCatalog(wb.env, wc.path); err != nil {
		if wc.copyDir != "" {
			os.RemoveAll(wc.copyDir)
		}
		wb.startProblems = append(wb.startProblems, "The workspace catalog could not be opened, so tables live in default_catalog until the next start and the init script replays them: "+err.Error())
		return
	}
	wc.cat, _ = wb.env.Catalogs().GetCatalog(workspaceCatalogName)
	wb.wsCatalog = wc
	if ws.Settings[settingCatalogMigrated] == "" || fresh {
		wb.migrateInitScript(ctx, ws)
	}
	// the demo's tables, now in the catalog, read the extracted sample
	// files: the worker extracts them again, before it runs anything, when
	// a cleaned cache lost them (what running the init script did before)
	wc.sampleScript, _, _ = wb.store.Setting(ctx, settingInitBeforeCatalog)
}

// ensureCatalogSampleData extracts the sample files again when tables the
// workspace catalog took from the init script read them and they are
// missing or changed. The worker calls it before its first script, so it
// costs the window's opening nothing and no statement runs before it.
func (wb *Workbench) ensureCatalogSampleData() {
	if wb.wsCatalog.active() && wb.wsCatalog.sampleScript != "" {
		wb.ensureSampleData(wb.wsCatalog.sampleScript)
	}
}

// registerWorkspaceCatalog creates the catalog `workspace` on the file at
// path in env and makes it the current catalog.
func registerWorkspaceCatalog(env *table.TableEnvironment, path string) error {
	create := fmt.Sprintf("CREATE CATALOG %s COMMENT 'this workspace''s tables, views and functions, kept in %s' WITH ('type' = '%s', '%s' = '%s')",
		workspaceCatalogName, sqlQuote(filepath.Base(path)), sqlitecatalog.Identifier, sqlitecatalog.OptionPath, sqlQuote(path))
	if _, err := env.ExecuteSQL(create); err != nil {
		return err
	}
	if _, err := env.ExecuteSQL("USE CATALOG " + workspaceCatalogName); err != nil {
		return err
	}
	return nil
}

func sqlQuote(s string) string { return strings.ReplaceAll(s, "'", "''") }

// closeWorkspaceCatalog closes the catalog file (and removes a read-only
// copy).
func (wb *Workbench) closeWorkspaceCatalog() {
	wc := wb.wsCatalog
	if !wc.active() {
		return
	}
	_ = wc.cat.Close()
	if wc.copyDir != "" {
		os.RemoveAll(wc.copyDir)
	}
}

var temporaryRe = regexp.MustCompile(`(?is)^(\s*CREATE\s+)TEMPORARY\s+((?:TABLE|VIEW|FUNCTION)\b)`)

// migrateInitScript replays the catalog DDL of the init script into the
// workspace catalog once (see the comment at the top of this file) and
// keeps in the init script what was not moved. It works in a scratch
// engine with its own connection to the catalog file, so the statements
// kept (SET, CREATE CATALOG …) run once, in the init script, afterwards.
func (wb *Workbench) migrateInitScript(ctx context.Context, ws *persistence.Workspace) {
	script := ws.InitScript
	if before := ws.Settings[settingInitBeforeCatalog]; before != "" {
		script = before // the catalog file was removed: move the old statements again
	}
	done := func() {
		if err := wb.store.SetSetting(ctx, settingCatalogMigrated, time.Now().UTC().Format(time.RFC3339)); err != nil {
			wb.startProblems = append(wb.startProblems, "Saving the workspace failed: "+err.Error())
		}
	}
	if strings.TrimSpace(script) == "" {
		done()
		return
	}
	scratch, err := table.Create(table.InStreamingMode())
	if err == nil {
		err = registerWorkspaceCatalog(scratch, wb.wsCatalog.path)
	}
	if err != nil {
		wb.startProblems = append(wb.startProblems, "The init script could not be moved into the workspace catalog: "+err.Error())
		return
	}
	defer func() {
		if c, ok := scratch.Catalogs().GetCatalog(workspaceCatalogName); ok {
			c.Close()
		}
	}()
	var kept []string
	moved := 0
	for _, sp := range sql.SplitStatements(script) {
		text := sp.Text
		st, err := sp.Parse()
		if err != nil {
			kept = append(kept, text)
			continue
		}
		switch s := st.(type) {
		case *sql.Use:
			if _, err := scratch.ExecuteSQL(text); err != nil {
				wb.startProblems = append(wb.startProblems, fmt.Sprintf("Moving the init script into the workspace catalog: %s: %v", summary(text), err))
			}
			kept = append(kept, text)
			continue
		case *sql.CreateFunction:
			if s.System {
				kept = append(kept, text)
				continue
			}
		case *sql.Drop:
			if s.System || s.Kind == sql.DropCatalog {
				kept = append(kept, text)
				continue
			}
		case *sql.CreateTable:
			if s.AsQuery != nil {
				kept = append(kept, text) // CREATE TABLE … AS runs a job
				continue
			}
		case *sql.CreateView, *sql.CreateDatabase, *sql.AlterTable, *sql.AlterView, *sql.AlterDatabase, *sql.AlterFunction:
		default:
			kept = append(kept, text)
			continue
		}
		if !inWorkspaceCatalog(scratch, st) {
			kept = append(kept, text)
			continue
		}
		permanent := temporaryRe.ReplaceAllString(text, "${1}${2}")
		if _, err := scratch.ExecuteSQL(permanent); err != nil && !strings.Contains(err.Error(), "already exists") {
			wb.startProblems = append(wb.startProblems, fmt.Sprintf("Moving the init script into the workspace catalog: %s: %v (the statement stays in the init script)", summary(text), err))
			kept = append(kept, text)
			continue
		}
		moved++
	}
	if moved == 0 {
		done()
		return
	}
	rest := ""
	if len(kept) > 0 {
		rest = strings.Join(kept, ";\n\n") + ";\n"
	}
	if ws.Settings[settingInitBeforeCatalog] == "" {
		if err := wb.store.SetSetting(ctx, settingInitBeforeCatalog, ws.InitScript); err != nil {
			wb.startProblems = append(wb.startProblems, "Saving the workspace failed: "+err.Error())
			return
		}
	}
	if err := wb.store.SaveInitScript(ctx, rest); err != nil {
		wb.startProblems = append(wb.startProblems, "Saving the workspace failed: "+err.Error())
		return
	}
	ws.InitScript = rest
	wb.mu.Lock()
	wb.initScript = rest
	wb.mu.Unlock()
	done()
	// a workspace used before says what happened to its init script; a
	// new one (the demo's tables, no history yet) has nothing to explain
	if h, _, err := wb.store.History(ctx, 1); err == nil && len(h) > 0 {
		wb.startNotes = append(wb.startNotes, fmt.Sprintf("%d statement(s) of the init script now live in the workspace catalog (catalog %s, file %s) and are no longer replayed at start.",
			moved, workspaceCatalogName, filepath.Base(wb.wsCatalog.path)))
	}
}

// inWorkspaceCatalog reports whether the object a DDL statement names is
// in the workspace catalog, qualified as env would.
func inWorkspaceCatalog(env *table.TableEnvironment, st sql.Statement) bool {
	var n *sql.ObjectName
	db := false
	switch s := st.(type) {
	case *sql.CreateTable:
		n = s.Name
	case *sql.CreateView:
		n = s.Name
	case *sql.CreateFunction:
		n = s.Name
	case *sql.CreateDatabase:
		n, db = s.Name, true
	case *sql.AlterTable:
		n = s.Name
	case *sql.AlterView:
		n = s.Name
	case *sql.AlterDatabase:
		n, db = s.Name, true
	case *sql.AlterFunction:
		n = s.Name
	case *sql.Drop:
		n, db = s.Name, s.Kind == sql.DropDatabase
	}
	if n == nil {
		return false
	}
	parts := nameParts(n)
	if db {
		if len(parts) == 2 {
			return parts[0] == workspaceCatalogName
		}
		return env.Catalogs().CurrentCatalog() == workspaceCatalogName
	}
	id, err := env.Catalogs().Qualify(parts)
	return err == nil && id.Catalog == workspaceCatalogName
}

func nameParts(n *sql.ObjectName) []string {
	parts := make([]string, len(n.Parts))
	for i, p := range n.Parts {
		parts[i] = p.Name
	}
	return parts
}

// ddlNote is what the message of a successful editor DDL statement adds:
// with the workspace catalog, " Saved in the workspace catalog." for a
// permanent object in it (nothing is recorded); without it, the init
// script records the statement as before.
func (wb *Workbench) ddlNote(req runReq, stmt sql.Statement, text string) string {
	if req.source != srcEditor || !req.conn.embedded() || stmt == nil || !isCatalogDDL(stmt) {
		return ""
	}
	if wb.wsCatalog.active() {
		switch s := stmt.(type) {
		case *sql.CreateTable:
			if s.Temporary {
				return ""
			}
		case *sql.CreateView:
			if s.Temporary {
				return ""
			}
		case *sql.CreateFunction:
			if s.Temporary || s.System {
				return ""
			}
		case *sql.Drop:
			if s.Temporary || s.System {
				return ""
			}
		}
		if inWorkspaceCatalog(wb.env, stmt) {
			return " Saved in the workspace catalog."
		}
		return ""
	}
	if wb.recordInit(text, stmt) {
		return " Recorded in the init script."
	}
	return ""
}

// rerunUnchanged handles a CREATE that failed with "already exists" on
// the embedded engine: when the object exists with exactly the definition
// the statement gives (compared on a temporary twin the statement makes
// under a scratch name, then drops), the statement counts as done: it is
// reported as such (and in the history for an editor tab) and true is
// returned. Otherwise false: the error stands, as in Flink.
func (wb *Workbench) rerunUnchanged(req runReq, stmt sql.Statement, text string, pos sql.Pos, started time.Time, err error) bool {
	if stmt == nil || !req.conn.embedded() || !strings.Contains(err.Error(), "already exists") {
		return false
	}
	if req.source == srcInit && wb.initCreateOfKept(stmt) {
		return true
	}
	what, ok := wb.sameDefinition(stmt, text, pos)
	if !ok {
		return false
	}
	msg := fmt.Sprintf("[INFO] %s already exists with this very definition: kept as it is.", what)
	if req.source != srcInit {
		wb.addHistory(text, started, time.Since(started), 0, "")
		wb.post(levelInfo, summary(text)+"\n"+msg, req.loc(pos))
	}
	return true
}

// initCreateOfKept reports an init script's CREATE (not temporary) of a
// table, view, function or database that the workspace catalog already
// holds: the catalog is where permanent objects live, so the init
// script's statement (File ▸ Open, the designer and Kafka's Create table
// still add theirs there) is skipped as if it said IF NOT EXISTS, even
// when the object was altered since.
func (wb *Workbench) initCreateOfKept(stmt sql.Statement) bool {
	if !wb.wsCatalog.active() || !inWorkspaceCatalog(wb.env, stmt) {
		return false
	}
	switch s := stmt.(type) {
	case *sql.CreateTable:
		return !s.Temporary && s.AsQuery == nil
	case *sql.CreateView:
		return !s.Temporary
	case *sql.CreateFunction:
		return !s.Temporary && !s.System
	case *sql.CreateDatabase:
		return true
	}
	return false
}

// sameDefinition compares the existing object stmt names with what stmt
// would create; it returns the object's description when they match.
func (wb *Workbench) sameDefinition(stmt sql.Statement, text string, pos sql.Pos) (string, bool) {
	env := wb.env
	switch s := stmt.(type) {
	case *sql.CreateTable, *sql.CreateView:
		var name *sql.ObjectName
		kind, temporary := "Table", false
		if ct, ok := s.(*sql.CreateTable); ok {
			if ct.AsQuery != nil || ct.Like != nil || ct.OrReplace || ct.Replace {
				return "", false
			}
			name, temporary = ct.Name, ct.Temporary
		} else {
			cv := s.(*sql.CreateView)
			name, temporary, kind = cv.Name, cv.Temporary, "View"
		}
		id, err := env.Catalogs().Qualify(nameParts(name))
		if err != nil {
			return "", false
		}
		existing, ok, err := env.Catalogs().GetTable(id)
		if err != nil || !ok || existing.Temporary != temporary {
			return "", false
		}
		start, end := name.Start.Offset-pos.Offset, name.EndOff-pos.Offset
		if start < 0 || end > len(text) || start >= end {
			return "", false
		}
		twin := catalog.ObjectIdentifier{Catalog: id.Catalog, Database: id.Database, Object: fmt.Sprintf("__riffle_rerun_check_%d", time.Now().UnixNano())}
		twinText := text[:start] + twin.String() + text[end:]
		if !temporary {
			twinText = regexp.MustCompile(`(?is)^(\s*CREATE\s+)`).ReplaceAllString(twinText, "${1}TEMPORARY ")
		}
		if _, err := env.ExecuteSQL(twinText); err != nil {
			return "", false
		}
		defer env.Catalogs().DropTemporaryTable(twin, nil)
		made, ok, err := env.Catalogs().GetTable(twin)
		if err != nil || !ok || fingerprint(made.Table) != fingerprint(existing.Table) {
			return "", false
		}
		return fmt.Sprintf("%s %s", kind, id.Summary()), true
	case *sql.CreateFunction:
		if s.Temporary || s.System || s.OrReplace {
			return "", false
		}
		id, err := env.Catalogs().Qualify(nameParts(s.Name))
		if err != nil {
			return "", false
		}
		c, err := env.Catalogs().Catalog(id.Catalog)
		if err != nil {
			return "", false
		}
		f, err := c.GetFunction(catalog.NewObjectPath(id.Database, strings.ToLower(id.Object)))
		lang := s.Language
		if lang == "" {
			lang = "GO"
		}
		if err != nil || f.ClassName != s.Class || !strings.EqualFold(f.Language, lang) {
			return "", false
		}
		return "Function " + id.Summary(), true
	case *sql.CreateDatabase:
		parts := nameParts(s.Name)
		cat := env.Catalogs().CurrentCatalog()
		if len(parts) == 2 {
			cat = parts[0]
		}
		c, err := env.Catalogs().Catalog(cat)
		if err != nil {
			return "", false
		}
		db, err := c.GetDatabase(parts[len(parts)-1])
		if err != nil {
			return "", false
		}
		comment := ""
		if s.Comment != nil {
			comment = *s.Comment
		}
		props := map[string]string{}
		for _, p := range s.Options {
			props[p.Key] = p.Value
		}
		if db.Comment != comment || fmt.Sprint(sortedPairs(db.Properties)) != fmt.Sprint(sortedPairs(props)) {
			return "", false
		}
		return "Database " + cat + "." + parts[len(parts)-1], true
	}
	return "", false
}

// fingerprint renders what defines a table or view (schema, options,
// comment, partition keys; a view's query), for comparing two of them.
func fingerprint(bt catalog.BaseTable) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%q|", bt.Kind(), bt.Comment())
	if s := bt.Schema(); s != nil {
		for _, c := range s.Columns {
			fmt.Fprintf(&b, "col %q %s %d %q %q %v %q|", c.Name, c.Type.SQLString(), c.Kind, c.Expr, c.MetadataKey, c.Virtual, c.Comment)
		}
		for _, w := range s.Watermarks {
			fmt.Fprintf(&b, "wm %q %q|", w.RowtimeAttribute, w.Expr)
		}
		if s.PrimaryKey != nil {
			fmt.Fprintf(&b, "pk %q|", s.PrimaryKey.Columns)
		}
	}
	fmt.Fprintf(&b, "opts %v|", sortedPairs(bt.Options()))
	switch t := bt.(type) {
	case *catalog.Table:
		fmt.Fprintf(&b, "parts %q|", t.PartitionKeys)
	case *catalog.View:
		fmt.Fprintf(&b, "query %q|", t.Query)
	}
	return b.String()
}

func sortedPairs(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
