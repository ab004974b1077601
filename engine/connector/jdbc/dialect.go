package jdbc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// Dialect names, as Flink's JdbcDialect.dialectName returns them.
const (
	DialectPostgres = "PostgreSQL"
	DialectMySQL    = "MySQL"
)

// Dialect is the SQL a database speaks (Flink's JdbcDialect): how it quotes
// identifiers, numbers placeholders, and writes upserts and LIMIT, and
// which Flink types it can hold.
type Dialect struct {
	// Name is "PostgreSQL" or "MySQL" (MariaDB uses the MySQL dialect).
	Name        string
	urlPrefixes []string
	defaultPort int
	// supported type roots, decimal and timestamp precision ranges
	supported                  map[types.TypeRoot]bool
	decimalMin, decimalMax     int
	timestampMin, timestampMax int
}

var (
	postgresDialect = &Dialect{
		Name:        DialectPostgres,
		urlPrefixes: []string{"jdbc:postgresql:"},
		defaultPort: 5432,
		supported: rootSet(types.Char, types.VarChar, types.Boolean, types.VarBinary, types.DecimalRoot,
			types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.Float, types.Double,
			types.DateRoot, types.TimeRoot, types.TimestampRoot, types.TimestampLTZRoot, types.ArrayRoot),
		decimalMin: 1, decimalMax: 1000,
		timestampMin: 1, timestampMax: 6,
	}
	mysqlDialect = &Dialect{
		Name:        DialectMySQL,
		urlPrefixes: []string{"jdbc:mysql:", "jdbc:mariadb:"},
		defaultPort: 3306,
		supported: rootSet(types.Char, types.VarChar, types.Boolean, types.VarBinary, types.DecimalRoot,
			types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.Float, types.Double,
			types.DateRoot, types.TimeRoot, types.TimestampRoot),
		decimalMin: 1, decimalMax: 65,
		timestampMin: 0, timestampMax: 6,
	}
	dialects = []*Dialect{postgresDialect, mysqlDialect}
)

func rootSet(roots ...types.TypeRoot) map[types.TypeRoot]bool {
	m := map[types.TypeRoot]bool{}
	for _, r := range roots {
		m[r] = true
	}
	return m
}

func dialectForURL(u string) *Dialect {
	for _, d := range dialects {
		for _, p := range d.urlPrefixes {
			if strings.HasPrefix(u, p) {
				return d
			}
		}
	}
	return nil
}

func supportedPrefixes() []string {
	var out []string
	for _, d := range dialects {
		for _, p := range d.urlPrefixes {
			out = append(out, p+"//")
		}
	}
	return out
}

// Quote quotes an identifier as Flink's dialect does: backticks for MySQL,
// and for PostgreSQL none at all (Flink's PostgresDialect leaves names as
// written, so PostgreSQL folds unquoted names to lower case and a
// schema-qualified 'schema.table' works as is).
func (d *Dialect) Quote(id string) string {
	if d.Name == DialectMySQL {
		return "`" + strings.ReplaceAll(id, "`", "``") + "`"
	}
	return id
}

// Placeholder is the n-th (1-based) parameter marker: $n for PostgreSQL,
// ? for MySQL.
func (d *Dialect) Placeholder(n int) string {
	if d.Name == DialectPostgres {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}

func (d *Dialect) quoteAll(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = d.Quote(id)
	}
	return strings.Join(q, ", ")
}

// InsertStatement is "INSERT INTO t(a, b) VALUES ($1, $2)" (Flink's
// getInsertIntoStatement with the dialect's placeholders).
func (d *Dialect) InsertStatement(table string, fields []string) string {
	ph := make([]string, len(fields))
	for i := range fields {
		ph[i] = d.Placeholder(i + 1)
	}
	return "INSERT INTO " + d.Quote(table) + "(" + d.quoteAll(fields) + ") VALUES (" + strings.Join(ph, ", ") + ")"
}

// UpsertStatement is PostgreSQL's
// "INSERT … ON CONFLICT (k) DO UPDATE SET v=EXCLUDED.v" or MySQL's
// "INSERT … ON DUPLICATE KEY UPDATE `k`=VALUES(`k`), `v`=VALUES(`v`)", as
// Flink's dialects write them. A PostgreSQL table whose columns are all
// key columns gets "DO NOTHING" (an empty SET list is not SQL).
func (d *Dialect) UpsertStatement(table string, fields, keys []string) string {
	ins := d.InsertStatement(table, fields)
	if d.Name == DialectMySQL {
		set := make([]string, len(fields))
		for i, f := range fields {
			set[i] = d.Quote(f) + "=VALUES(" + d.Quote(f) + ")"
		}
		return ins + " ON DUPLICATE KEY UPDATE " + strings.Join(set, ", ")
	}
	isKey := map[string]bool{}
	for _, k := range keys {
		isKey[k] = true
	}
	var set []string
	for _, f := range fields {
		if !isKey[f] {
			set = append(set, d.Quote(f)+"=EXCLUDED."+d.Quote(f))
		}
	}
	if len(set) == 0 {
		return ins + " ON CONFLICT (" + d.quoteAll(keys) + ") DO NOTHING"
	}
	return ins + " ON CONFLICT (" + d.quoteAll(keys) + ") DO UPDATE SET " + strings.Join(set, ", ")
}

// conditions renders "a = $first AND b = $first+1".
func (d *Dialect) conditions(fields []string, first int) string {
	c := make([]string, len(fields))
	for i, f := range fields {
		c[i] = d.Quote(f) + " = " + d.Placeholder(first+i)
	}
	return strings.Join(c, " AND ")
}

// DeleteStatement is "DELETE FROM t WHERE k1 = $1 AND k2 = $2".
func (d *Dialect) DeleteStatement(table string, keys []string) string {
	return "DELETE FROM " + d.Quote(table) + " WHERE " + d.conditions(keys, 1)
}

// SelectStatement is "SELECT a, b FROM t[ WHERE k = $1 AND …]" (Flink's
// getSelectFromStatement). An empty field list selects the constant 1 (a
// COUNT(*) needs rows, not columns).
func (d *Dialect) SelectStatement(table string, fields, conds []string) string {
	sel := d.quoteAll(fields)
	if len(fields) == 0 {
		sel = "1"
	}
	s := "SELECT " + sel + " FROM " + d.Quote(table)
	if len(conds) > 0 {
		s += " WHERE " + d.conditions(conds, 1)
	}
	return s
}

// LimitClause is "LIMIT n" in both dialects.
func (d *Dialect) LimitClause(n int64) string { return "LIMIT " + strconv.FormatInt(n, 10) }

// Validate checks the physical column types against the types the dialect
// supports, with Flink's messages ("The PostgreSQL dialect doesn't support
// type: BINARY(3).", "The precision of field 'x' is out of the DECIMAL
// precision range [1, 65] supported by MySQL dialect.").
func (d *Dialect) Validate(names []string, ts []*types.DataType) error {
	for i, t := range ts {
		if !d.supported[t.Root] || (t.Root == types.VarBinary && t.Length != types.MaxLength) {
			return fmt.Errorf("The %s dialect doesn't support type: %s.", d.Name, t)
		}
		if t.Root == types.ArrayRoot {
			if err := d.validateElement(t.Elem); err != nil {
				return err
			}
		}
		switch t.Root {
		case types.DecimalRoot:
			if t.Precision < d.decimalMin || t.Precision > d.decimalMax {
				return fmt.Errorf("The precision of field '%s' is out of the DECIMAL precision range [%d, %d] supported by %s dialect.", names[i], d.decimalMin, d.decimalMax, d.Name)
			}
		case types.TimestampRoot:
			if t.Precision < d.timestampMin || t.Precision > d.timestampMax {
				return fmt.Errorf("The precision of field '%s' is out of the TIMESTAMP precision range [%d, %d] supported by %s dialect.", names[i], d.timestampMin, d.timestampMax, d.Name)
			}
		}
	}
	return nil
}

// validateElement accepts the array element types PostgreSQL arrays map to.
func (d *Dialect) validateElement(t *types.DataType) error {
	switch t.Root {
	case types.Char, types.VarChar, types.Boolean, types.DecimalRoot, types.SmallInt, types.Integer,
		types.BigInt, types.Float, types.Double, types.DateRoot, types.TimeRoot, types.TimestampRoot, types.TimestampLTZRoot:
		return nil
	case types.VarBinary:
		if t.Length == types.MaxLength {
			return nil
		}
	}
	return fmt.Errorf("The %s dialect doesn't support type: ARRAY<%s>.", d.Name, t)
}
