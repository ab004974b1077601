package jdbc

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/riffle-sql/riffle/engine/types"
)

// pgCatalogDialect reads PostgreSQL's catalogs (Flink's PostgresCatalog).
type pgCatalogDialect struct{ addr catalogAddr }

func (*pgCatalogDialect) product() string { return "PostgreSQL" }

// open connects with pgx through database/sql; the base-url's parameters
// (sslmode, …) go to pgx as connection string parameters.
func (d *pgCatalogDialect) open(a catalogAddr, user, password, database string, timeout time.Duration) (*sql.DB, error) {
	params := a.params
	if params == nil || params.Get("sslmode") == "" {
		// pgjdbc does not try TLS unless asked; pgx's default ('prefer')
		// would, which a local server refuses noisily
		q := cloneValues(params)
		q.Set("sslmode", "disable")
		params = q
	}
	kv := []string{
		"host=" + pgQuoteConnValue(a.host),
		fmt.Sprintf("port=%d", a.port),
		"user=" + pgQuoteConnValue(user),
		"password=" + pgQuoteConnValue(password),
		"dbname=" + pgQuoteConnValue(database),
		fmt.Sprintf("connect_timeout=%d", int(timeout.Seconds()+0.5)),
	}
	// only the TLS parameters and the application name reach pgx: the
	// others are pgjdbc's and the server would refuse them as settings
	for k, vs := range params {
		if len(vs) == 0 {
			continue
		}
		switch k {
		case "sslmode", "sslrootcert", "sslcert", "sslkey":
			kv = append(kv, k+"="+pgQuoteConnValue(vs[len(vs)-1]))
		case "ApplicationName", "application_name":
			kv = append(kv, "application_name="+pgQuoteConnValue(vs[len(vs)-1]))
		}
	}
	cfg, err := pgx.ParseConfig(strings.Join(kv, " "))
	if err != nil {
		return nil, err
	}
	return stdlib.OpenDB(*cfg), nil
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// pgQuoteConnValue quotes a value of a libpq key=value connection string.
func pgQuoteConnValue(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// pgBuiltinDatabases are hidden as Flink's PostgresCatalog hides them.
var pgBuiltinDatabases = map[string]bool{"template0": true, "template1": true}

// pgBuiltinSchemas are hidden as Flink's PostgresCatalog hides them; the
// temporary schemas of every session (pg_temp_N, pg_toast_temp_N) too.
var pgBuiltinSchemas = map[string]bool{"pg_toast": true, "pg_temp_1": true, "pg_toast_temp_1": true, "pg_catalog": true, "information_schema": true}

func pgHiddenSchema(s string) bool {
	return pgBuiltinSchemas[s] || strings.HasPrefix(s, "pg_temp_") || strings.HasPrefix(s, "pg_toast_temp_")
}

func (*pgCatalogDialect) builtinDatabases() map[string]bool { return pgBuiltinDatabases }

func (*pgCatalogDialect) listDatabases(ctx context.Context, db *sql.DB) ([]string, error) {
	return queryStrings(ctx, db, "SELECT datname FROM pg_database")
}

// listTables lists the base tables of the schemas that are not the
// system's, as '<schema>.<table>'.
func (*pgCatalogDialect) listTables(ctx context.Context, db *sql.DB, _ string) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s, t string
		if err := rows.Scan(&s, &t); err != nil {
			return nil, err
		}
		if !pgHiddenSchema(s) {
			out = append(out, s+"."+t)
		}
	}
	return out, rows.Err()
}

// PostgresTablePath splits a Flink table name of a PostgreSQL catalog into
// schema and table, as Flink's PostgresTablePath: "schema.table", or
// "table" in schema public. Errors: more than one dot, an empty part.
func PostgresTablePath(name string) (schema, table string, err error) {
	if !strings.Contains(name, ".") {
		if strings.TrimSpace(name) == "" {
			return "", "", fmt.Errorf("Table name is not valid. Null or empty is not allowed")
		}
		return "public", name, nil
	}
	parts := strings.Split(name, ".")
	if len(parts) != 2 {
		return "", "", fmt.Errorf("Table name '%s' is not valid. The parsed length is %d", name, len(parts))
	}
	if strings.TrimSpace(parts[0]) == "" {
		return "", "", fmt.Errorf("Schema name is not valid. Null or empty is not allowed")
	}
	if strings.TrimSpace(parts[1]) == "" {
		return "", "", fmt.Errorf("Table name is not valid. Null or empty is not allowed")
	}
	return parts[0], parts[1], nil
}

func (*pgCatalogDialect) splitTable(_, object string) (string, string, error) {
	return PostgresTablePath(object)
}

func (*pgCatalogDialect) tableName(schema, table string) string { return schema + "." + table }

// columns reads a base table's columns from pg_attribute (a domain's
// columns as its base type, as the server describes them in a result) and
// its primary key from pg_constraint.
func (*pgCatalogDialect) columns(ctx context.Context, db *sql.DB, schema, table string) ([]serverColumn, *types.UniqueConstraint, bool, error) {
	if pgHiddenSchema(schema) {
		return nil, nil, false, nil
	}
	const q = `SELECT a.attname, bt.typname,
       CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END,
       a.attnotnull OR (t.typtype = 'd' AND t.typnotnull)
FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
JOIN pg_catalog.pg_type bt ON bt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p')
  AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attnum`
	rows, err := db.QueryContext(ctx, q, schema, table)
	if err != nil {
		return nil, nil, false, err
	}
	var cols []serverColumn
	for rows.Next() {
		var c serverColumn
		var mod int32
		if err := rows.Scan(&c.Name, &c.Type, &mod, &c.NotNull); err != nil {
			rows.Close()
			return nil, nil, false, err
		}
		c.TypeMod = int(mod)
		cols = append(cols, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, false, err
	}
	if len(cols) == 0 {
		// a table with no column still exists
		var one int
		err := db.QueryRowContext(ctx, `SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p')`, schema, table).Scan(&one)
		if err == sql.ErrNoRows {
			return nil, nil, false, nil
		}
		if err != nil {
			return nil, nil, false, err
		}
	}
	const pkq = `SELECT con.conname, a.attname
FROM pg_catalog.pg_constraint con
JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
WHERE con.contype = 'p' AND n.nspname = $1 AND c.relname = $2
ORDER BY k.ord`
	prow, err := db.QueryContext(ctx, pkq, schema, table)
	if err != nil {
		return nil, nil, false, err
	}
	defer prow.Close()
	var pk *types.UniqueConstraint
	for prow.Next() {
		var name, col string
		if err := prow.Scan(&name, &col); err != nil {
			return nil, nil, false, err
		}
		if pk == nil {
			pk = &types.UniqueConstraint{Name: name}
		}
		pk.Columns = append(pk.Columns, col)
	}
	return cols, pk, true, prow.Err()
}

func (*pgCatalogDialect) mapType(c serverColumn) (*types.DataType, error) {
	return PostgresColumnType(c.Type, c.TypeMod)
}

// queryStrings runs a query whose rows are one string each.
func queryStrings(ctx context.Context, db *sql.DB, q string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
