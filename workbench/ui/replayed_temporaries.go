package ui

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/sql"
)

// Temporary tables and views the workspace's init script makes at start
// (a CREATE TEMPORARY TABLE the user put there, or one an older workbench
// recorded) belong to the workspace, not to the user's session: in Flink's
// SQL Client a new session starts without them. So the first CREATE
// TEMPORARY TABLE/VIEW an editor tab runs for one of them replaces it,
// rather than failing with "Temporary table … already exists" (issue 21):
// a reopened workspace's tab runs again whether or not its text changed.
// Once replaced the object is the session's own, and a second CREATE of
// it fails as in Flink (unless its definition is the same, see
// rerunUnchanged). Only the embedded engine replays the init script.

// replayedTemporaries are the identifiers of the temporary tables and
// views the init script made and no editor tab has replaced yet.
type replayedTemporaries struct {
	mu  sync.Mutex
	ids map[catalog.ObjectIdentifier]bool
}

// temporaryCreate returns the name of a CREATE TEMPORARY TABLE (not AS
// SELECT, LIKE or OR REPLACE) or CREATE TEMPORARY VIEW, and what it is.
func temporaryCreate(st sql.Statement) (*sql.ObjectName, string, bool) {
	switch s := st.(type) {
	case *sql.CreateTable:
		if s.Temporary && s.AsQuery == nil && s.Like == nil && !s.OrReplace && !s.Replace {
			return s.Name, "Temporary table", true
		}
	case *sql.CreateView:
		if s.Temporary {
			return s.Name, "Temporary view", true
		}
	}
	return nil, "", false
}

// markReplayed records a temporary table or view the init script has
// just made.
func (wb *Workbench) markReplayed(req runReq, st sql.Statement) {
	if req.source != srcInit || !req.conn.embedded() {
		return
	}
	name, _, ok := temporaryCreate(st)
	if !ok {
		return
	}
	id, err := wb.env.Catalogs().Qualify(nameParts(name))
	if err != nil || !wb.env.Catalogs().IsTemporary(id) {
		return
	}
	r := &wb.replayed
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ids == nil {
		r.ids = map[catalog.ObjectIdentifier]bool{}
	}
	r.ids[id] = true
}

// replaceReplayed handles an editor's CREATE TEMPORARY TABLE/VIEW that
// failed with "already exists" because the init script made the object:
// the init script's object is dropped and the statement run again (the
// old object comes back should the statement fail). It reports whether
// the statement is done; false leaves err to be shown.
func (wb *Workbench) replaceReplayed(req runReq, st sql.Statement, text string, pos sql.Pos, started time.Time, err error) bool {
	if req.source == srcInit || !req.conn.embedded() || !strings.Contains(err.Error(), "already exists") {
		return false
	}
	name, what, ok := temporaryCreate(st)
	if !ok {
		return false
	}
	cats := wb.env.Catalogs()
	id, qerr := cats.Qualify(nameParts(name))
	if qerr != nil {
		return false
	}
	r := &wb.replayed
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ids[id] {
		return false
	}
	old, found, gerr := cats.GetTable(id)
	if gerr != nil || !found || !old.Temporary {
		return false
	}
	cats.DropTemporaryTable(id, nil)
	if _, xerr := wb.env.ExecuteSQL(text); xerr != nil {
		_ = cats.CreateTemporaryTable(id, old.Table, true)
		return false
	}
	delete(r.ids, id)
	msg := fmt.Sprintf("[INFO] %s %s replaced the one the workspace's init script made at start.", what, id.Summary())
	wb.addHistory(text, started, time.Since(started), 0, "")
	wb.post(levelInfo, summary(text)+"\n"+msg, req.loc(pos))
	return true
}
