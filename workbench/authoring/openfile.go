package authoring

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// UniqueTableName returns base, or base_2, base_3, ... when the catalog
// already has a table or view of that name in the current database (File →
// Open never replaces an existing table silently).
func UniqueTableName(cat Catalog, base string) string {
	name := base
	for k := 2; ; k++ {
		if _, err := cat.Table([]string{name}); err != nil {
			return name
		}
		name = fmt.Sprintf("%s_%d", base, k)
	}
}

// AddToInitScript adds a statement (typically the CREATE TABLE of an
// opened file) to a workspace's init script, so that the table is there
// again when the workspace opens. A CREATE TABLE or CREATE VIEW of the
// same object already in the script is replaced in place; otherwise the
// statement is appended. The rest of the script is kept byte for byte.
func AddToInitScript(script, stmt string) (string, error) {
	st, err := sql.Parse(stmt)
	if err != nil {
		return "", err
	}
	key := createdObject(st)
	stmt = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stmt), ";"))
	if key != "" {
		for _, sp := range sql.SplitStatements(script) {
			old, err := sp.Parse()
			if err != nil {
				continue
			}
			if createdObject(old) == key {
				return script[:sp.Start.Offset] + stmt + script[sp.End:], nil
			}
		}
	}
	out := strings.TrimRight(script, " \t\r\n")
	if out != "" {
		if !strings.HasSuffix(out, ";") {
			out += ";"
		}
		out += "\n\n"
	}
	return out + stmt + ";\n", nil
}

// createdObject names the table or view a CREATE statement creates, as
// its canonical (quoted) name; "" for other statements.
func createdObject(st sql.Statement) string {
	switch x := st.(type) {
	case *sql.CreateTable:
		return sql.Format(x.Name)
	case *sql.CreateView:
		return sql.Format(x.Name)
	}
	return ""
}
