package ui

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// recordDDL returns the init script after recording a DDL statement that
// succeeded, so that replaying the script rebuilds the same catalog:
//
//   - CREATE TABLE/VIEW of an object the script already creates replaces
//     that statement in place (CREATE OR REPLACE, IF NOT EXISTS, or the
//     same CREATE run again);
//   - DROP TABLE/VIEW removes the statements that create or alter that
//     object instead of being appended (so a dropped table leaves no
//     trace), and is appended only when the script never created it;
//   - anything else (ALTER, USE, CREATE DATABASE, functions, ...) is
//     appended.
//
// Objects are matched by their name as written (after unquoting). changed
// is false when the script stays as it was.
func recordDDL(script, stmtText string, st sql.Statement) (out string, changed bool) {
	name, kind := objectOf(st)
	spans := sql.SplitStatements(script)
	switch {
	case kind == objCreate && name != "":
		for _, sp := range spans {
			if n, k := parsedObject(sp); k == objCreate && n == name {
				if strings.TrimSpace(sp.Text) == strings.TrimSpace(stmtText) {
					return script, false
				}
				return script[:sp.Start.Offset] + stmtText + script[sp.End:], true
			}
		}
	case kind == objDrop && name != "":
		var cut [][2]int
		for _, sp := range spans {
			if n, k := parsedObject(sp); (k == objCreate || k == objAlter) && n == name {
				cut = append(cut, [2]int{sp.Start.Offset, statementEnd(script, sp.End)})
			}
		}
		if len(cut) > 0 {
			out = script
			for i := len(cut) - 1; i >= 0; i-- {
				out = out[:cut[i][0]] + out[cut[i][1]:]
			}
			return tidy(out), true
		}
	}
	out = strings.TrimRight(script, " \t\n")
	if out != "" {
		out += "\n\n"
	}
	return out + stmtText + ";\n", true
}

type objKind uint8

const (
	objOther objKind = iota
	objCreate
	objAlter
	objDrop
)

// objectOf returns the table or view a statement creates, alters or drops.
func objectOf(st sql.Statement) (string, objKind) {
	switch s := st.(type) {
	case *sql.CreateTable:
		return nameOf(s.Name), objCreate
	case *sql.CreateView:
		return nameOf(s.Name), objCreate
	case *sql.AlterTable:
		return nameOf(s.Name), objAlter
	case *sql.AlterView:
		return nameOf(s.Name), objAlter
	case *sql.Drop:
		if s.Kind == sql.DropTable || s.Kind == sql.DropView {
			return nameOf(s.Name), objDrop
		}
	}
	return "", objOther
}

func parsedObject(sp sql.StatementSpan) (string, objKind) {
	st, err := sp.Parse()
	if err != nil {
		return "", objOther
	}
	return objectOf(st)
}

func nameOf(n *sql.ObjectName) string {
	if n == nil {
		return ""
	}
	parts := make([]string, len(n.Parts))
	for i, p := range n.Parts {
		parts[i] = p.Name
	}
	return strings.Join(parts, "\x00")
}

// statementEnd extends a statement's end over its ";" and the rest of the
// line, so that removing it leaves no stray ";" or blank line.
func statementEnd(script string, end int) int {
	i := end
	for i < len(script) && (script[i] == ' ' || script[i] == '\t') {
		i++
	}
	if i < len(script) && script[i] == ';' {
		i++
	}
	for i < len(script) && (script[i] == ' ' || script[i] == '\t') {
		i++
	}
	if i < len(script) && script[i] == '\n' {
		i++
	}
	return i
}

// tidy collapses the runs of blank lines that removals leave and ends the
// script with one line break.
func tidy(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	s = strings.TrimRight(s, " \t\n")
	if s == "" {
		return ""
	}
	return s + "\n"
}
