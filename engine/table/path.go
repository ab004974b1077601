package table

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
)

// ParsePath splits an object path "[[catalog.]database.]object" into its
// parts (Flink's SQL identifier syntax): parts are separated by dots, and a
// part holding dots or other special characters is written in backquotes,
// with a doubled backquote standing for one. For example "cat.`db.Name`.`Table`"
// is ["cat", "db.Name", "Table"]. It fails on an empty path or part, an
// unterminated quote, or more than three parts.
func ParsePath(path string) ([]string, error) {
	var parts []string
	var cur strings.Builder
	quoted, wasQuoted := false, false
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case quoted && c == '`':
			if i+1 < len(path) && path[i+1] == '`' {
				cur.WriteByte('`')
				i++
				continue
			}
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '`':
			if cur.Len() > 0 {
				return nil, fmt.Errorf("invalid path %q: a quoted part must be a whole part", path)
			}
			quoted, wasQuoted = true, true
		case c == '.':
			if cur.Len() == 0 && !wasQuoted {
				return nil, fmt.Errorf("invalid path %q: empty part", path)
			}
			parts = append(parts, cur.String())
			cur.Reset()
			wasQuoted = false
		default:
			if wasQuoted {
				return nil, fmt.Errorf("invalid path %q: text after a closing backquote", path)
			}
			cur.WriteByte(c)
		}
	}
	if quoted {
		return nil, fmt.Errorf("invalid path %q: unterminated backquote", path)
	}
	if cur.Len() == 0 && !wasQuoted {
		return nil, fmt.Errorf("invalid path %q: empty part", path)
	}
	parts = append(parts, cur.String())
	for i := range parts {
		if !strings.Contains(path, "`") {
			parts[i] = strings.TrimSpace(parts[i])
		}
	}
	if len(parts) > 3 {
		return nil, fmt.Errorf("invalid path %q: at most catalog.database.object", path)
	}
	return parts, nil
}

// qualifyPath resolves a path string against the current catalog and
// database (PyFlink's path resolution rules of use_catalog/use_database).
func (t *TableEnvironment) qualifyPath(path string) (catalog.ObjectIdentifier, error) {
	parts, err := ParsePath(path)
	if err != nil {
		return catalog.ObjectIdentifier{}, err
	}
	return t.catalogs.Qualify(parts)
}
