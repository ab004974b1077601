package jdbc

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/riffle-sql/riffle/engine/types"
)

// mysqlCatalogDialect reads MySQL's and MariaDB's information_schema
// (Flink's MySqlCatalog).
type mysqlCatalogDialect struct{ addr catalogAddr }

func (*mysqlCatalogDialect) product() string { return "MySQL" }

// open connects with go-sql-driver/mysql. The base-url's parameters are
// Connector/J's (serverTimezone, useSSL, …) and are not passed on: the Go
// driver would send unknown ones to the server as session variables.
func (d *mysqlCatalogDialect) open(a catalogAddr, user, password, database string, timeout time.Duration) (*sql.DB, error) {
	cfg := mysql.NewConfig()
	cfg.Net = "tcp"
	cfg.Addr = a.hostPort()
	cfg.User = user
	cfg.Passwd = password
	cfg.DBName = database
	cfg.Timeout = timeout
	cfg.ReadTimeout = timeout
	cfg.AllowNativePasswords = true
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(conn), nil
}

// mysqlBuiltinDatabases are hidden as Flink's MySqlCatalog hides them.
var mysqlBuiltinDatabases = map[string]bool{"information_schema": true, "mysql": true, "performance_schema": true, "sys": true}

func (*mysqlCatalogDialect) builtinDatabases() map[string]bool { return mysqlBuiltinDatabases }

func (*mysqlCatalogDialect) listDatabases(ctx context.Context, db *sql.DB) ([]string, error) {
	return queryStrings(ctx, db, "SELECT `SCHEMA_NAME` FROM `INFORMATION_SCHEMA`.`SCHEMATA`")
}

// listTables lists a database's tables and views, as Flink's MySqlCatalog.
func (*mysqlCatalogDialect) listTables(ctx context.Context, db *sql.DB, database string) ([]string, error) {
	return queryStrings(ctx, db, "SELECT TABLE_NAME FROM information_schema.`TABLES` WHERE TABLE_SCHEMA = ?", database)
}

// splitTable: a MySQL table is named by itself in its database.
func (*mysqlCatalogDialect) splitTable(database, object string) (string, string, error) {
	if object == "" {
		return "", "", fmt.Errorf("Table name is not valid. Null or empty is not allowed")
	}
	return database, object, nil
}

func (*mysqlCatalogDialect) tableName(_, table string) string { return table }

// columns reads a table's columns from information_schema.COLUMNS, with
// the length in characters of character columns (text types: their byte
// length over the character set's longest character, as Connector/J
// reports it), and its primary key from KEY_COLUMN_USAGE.
func (*mysqlCatalogDialect) columns(ctx context.Context, db *sql.DB, schema, table string) ([]serverColumn, *types.UniqueConstraint, bool, error) {
	var one int
	err := db.QueryRowContext(ctx, "SELECT 1 FROM information_schema.`TABLES` WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", schema, table).Scan(&one)
	if err == sql.ErrNoRows {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	const q = "SELECT c.COLUMN_NAME, c.DATA_TYPE, c.COLUMN_TYPE, c.IS_NULLABLE," +
		" COALESCE(c.NUMERIC_PRECISION, 0), COALESCE(c.NUMERIC_SCALE, 0), COALESCE(c.DATETIME_PRECISION, 0)," +
		" COALESCE(c.CHARACTER_MAXIMUM_LENGTH, 0), COALESCE(c.CHARACTER_OCTET_LENGTH, 0), COALESCE(cs.MAXLEN, 1)" +
		" FROM information_schema.COLUMNS c" +
		" LEFT JOIN information_schema.CHARACTER_SETS cs ON cs.CHARACTER_SET_NAME = c.CHARACTER_SET_NAME" +
		" WHERE c.TABLE_SCHEMA = ? AND c.TABLE_NAME = ? ORDER BY c.ORDINAL_POSITION"
	rows, err := db.QueryContext(ctx, q, schema, table)
	if err != nil {
		return nil, nil, false, err
	}
	var cols []serverColumn
	for rows.Next() {
		var c serverColumn
		var nullable string
		var maxLen, octets, mbMax int64
		if err := rows.Scan(&c.Name, &c.DataType, &c.Type, &nullable, &c.Precision, &c.Scale, &c.DatetimePrecision, &maxLen, &octets, &mbMax); err != nil {
			rows.Close()
			return nil, nil, false, err
		}
		c.NotNull = nullable == "NO"
		c.CharLength = mysqlCharLength(c.DataType, maxLen, octets, mbMax)
		cols = append(cols, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, false, err
	}
	const pkq = "SELECT COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE" +
		" WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION"
	keys, err := queryStrings(ctx, db, pkq, schema, table)
	if err != nil {
		return nil, nil, false, err
	}
	var pk *types.UniqueConstraint
	if len(keys) > 0 {
		pk = &types.UniqueConstraint{Name: "PRIMARY", Columns: keys}
	}
	return cols, pk, true, nil
}

// mysqlCharLength is the length in characters Connector/J reports: the
// declared length for CHAR, VARCHAR, ENUM and SET; for the text types
// their byte length over the character set's longest character (TEXT in
// utf8mb3: 65535 / 3 = 21845).
func mysqlCharLength(dataType string, maxLen, octets, mbMax int64) int64 {
	switch dataType {
	case "tinytext", "text", "mediumtext", "longtext":
		if mbMax < 1 {
			mbMax = 1
		}
		if octets > 0 {
			return octets / mbMax
		}
		return maxLen / mbMax
	}
	return maxLen
}

func (*mysqlCatalogDialect) mapType(c serverColumn) (*types.DataType, error) {
	return MySQLColumnType(c.DataType, c.Type, c.Precision, c.Scale, c.DatetimePrecision, c.CharLength)
}
