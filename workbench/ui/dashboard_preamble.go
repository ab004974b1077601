package ui

import (
	"regexp"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// pinPreamble is the DDL a pinned query needs in a new session: the
// CREATE TEMPORARY TABLE / VIEW statements of the editor tab it ran from
// that define a name the query reads (or a definition already taken
// reads), in the tab's order, each ending in ";\n". A temporary table
// lives only in the session, so a tile restarted after the workbench
// restarts makes it again; run again in the same session an unchanged
// definition is accepted (rerunUnchanged). "" when the tab is gone or
// defines none.
func (wb *Workbench) pinPreamble(rt *resultTab) string {
	t := wb.editors.byID(rt.editorTab)
	if t == nil {
		return ""
	}
	type def struct {
		name, text string
		taken      bool
	}
	var defs []*def
	for _, span := range sql.SplitStatements(t.ed.Text()) {
		st, err := span.Parse()
		if err != nil {
			continue
		}
		if name, _, ok := temporaryCreate(st); ok && len(name.Parts) > 0 && !strings.Contains(rt.stmt, span.Text) {
			defs = append(defs, &def{name: name.Parts[len(name.Parts)-1].Name, text: strings.TrimSpace(span.Text)})
		}
	}
	reads := []string{rt.stmt}
	for changed := true; changed; {
		changed = false
		for _, d := range defs {
			if d.taken {
				continue
			}
			re := regexp.MustCompile(`(?i)(^|[^\w])` + "`?" + regexp.QuoteMeta(d.name) + "`?" + `($|[^\w])`)
			for _, r := range reads {
				if re.MatchString(r) {
					d.taken, changed = true, true
					reads = append(reads, d.text)
					break
				}
			}
		}
	}
	var b strings.Builder
	for _, d := range defs {
		if d.taken {
			b.WriteString(d.text)
			b.WriteString(";\n")
		}
	}
	return b.String()
}
