package ui

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/session"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

// resultTitle names the results of a run: the detached run's title, or the
// editor tab's title when the user named it ("" = named after the query).
func (r runReq) resultTitle() string {
	if r.title != "" || r.tab == nil {
		return r.title
	}
	if defaultTabTitle.MatchString(r.tabTitle) {
		return ""
	}
	return r.tabTitle
}

var defaultTabTitle = regexp.MustCompile(`^Query \d+$`)

// loc is where a message about the statement at pos points.
func (r runReq) loc(pos sql.Pos) *msgLoc {
	if r.tab == nil {
		return nil
	}
	return &msgLoc{tab: r.tab, line: pos.Line, col: pos.Column}
}

// post adds a message from the worker.
func (wb *Workbench) post(level msgLevel, text string, loc *msgLoc) {
	wb.do(func() { wb.messages.add(level, text, loc) })
}

// postAs adds or replaces (messagesPanel.put) the message id from the
// worker.
func (wb *Workbench) postAs(id int64, level msgLevel, text string, loc *msgLoc) {
	wb.do(func() { wb.messages.put(id, level, text, loc) })
}

// summary is a statement's first line, shortened, for messages.
func summary(text string) string {
	first, _, more := strings.Cut(strings.TrimSpace(text), "\n")
	first = strings.TrimSpace(first)
	if utf8.RuneCountInString(first) > 80 {
		first = string([]rune(first)[:79]) + "…"
	} else if more {
		first += " …"
	}
	return first
}

// errPos extracts the 1-based position of a parse or validation error,
// embedded or from a gateway's message.
func errPos(err error) (line, col int, ok bool) { return session.ErrorPosition(err) }

var errEndRe = regexp.MustCompile(`\bto line (\d+), column (\d+)`)

// errEnd extracts where an error's span ends (1-based, the column of its
// last character), when it reports one: "From line 1, column 40 to line
// 1, column 55: …" (the embedded validator's and Flink's wording).
func errEnd(err error) (line, col int, ok bool) {
	if line, col, ok := session.ErrorEnd(err); ok {
		return line, col, true
	}
	m := errEndRe.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, 0, false
	}
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	return line, col, line > 0 && col > 0
}

// fail reports a failed statement: a marker in the editor at the error's
// position (or the statement's start), the message in Messages, history.
// A gateway that cannot be reached marks nothing: the statement is not
// at fault.
func (wb *Workbench) fail(req runReq, text string, pos sql.Pos, err error, started time.Time) {
	line, col, ok := errPos(err)
	if !ok {
		line, col = pos.Line, max(pos.Column, 1)
	}
	msg := err.Error()
	connMsg, connErr := unreachable(err)
	if connErr {
		msg = connMsg
	}
	if req.source != srcInit {
		wb.addHistory(text, started, time.Since(started), 0, msg)
	}
	req.tile.failed(msg) // dashboard hook (dashboard_run.go)
	where := ""
	switch req.source {
	case srcInit:
		where = fmt.Sprintf("Init script, line %d: ", line)
	case srcEditor:
		if !ok && !connErr {
			where = fmt.Sprintf("Statement at line %d: ", line)
		}
	}
	t := req.tab
	wb.do(func() {
		var loc *msgLoc
		if t != nil && wb.editors.byID(t.id) == t && !connErr {
			if el, ec, span := errEnd(err); span && ok {
				t.ed.SetErrorSpan(line-1, col-1, el-1, ec, msg) // the whole span
			} else {
				t.ed.SetErrorMarker(line-1, col-1, msg)
			}
			loc = &msgLoc{tab: t, line: line, col: col}
		}
		wb.messages.add(levelError, "[ERROR] "+where+msg, loc)
		wb.showPanel(wb.messages.item)
		wb.setStatus("Error: " + firstLine(msg))
	})
}

func firstLine(s string) string {
	f, _, _ := strings.Cut(s, "\n")
	return f
}

// addHistory records a statement and returns its history ID (0 on error).
func (wb *Workbench) addHistory(text string, started time.Time, d time.Duration, rows int64, errText string) int64 {
	h := persistence.HistoryEntry{Statement: text, Started: started, Duration: d, Rows: rows, Error: errText}
	id, err := wb.store.AddHistory(context.Background(), h)
	if err != nil {
		return 0
	}
	h.ID = id
	wb.do(func() { wb.history.Put(h) })
	return id
}

func (wb *Workbench) updateHistory(h persistence.HistoryEntry) {
	if h.ID == 0 {
		return
	}
	if err := wb.store.UpdateHistory(context.Background(), h); err == nil {
		wb.do(func() { wb.history.Put(h) })
	}
}
