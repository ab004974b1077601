package jdbc

import (
	"errors"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/catalog"
)

// PostgreSQL type modifiers as the server stores them.
func pgNumericMod(p, s int) int { return (p<<16 | s) + 4 }
func pgCharMod(n int) int       { return n + 4 }

func TestPostgresColumnType(t *testing.T) {
	cases := []struct {
		typ  string
		mod  int
		want string
	}{
		{"bool", -1, "BOOLEAN"},
		{"bytea", -1, "BYTES"},
		{"int2", -1, "SMALLINT"},
		{"smallserial", -1, "SMALLINT"},
		{"int4", -1, "INT"},
		{"serial", -1, "INT"},
		{"int8", -1, "BIGINT"},
		{"bigserial", -1, "BIGINT"},
		{"float4", -1, "FLOAT"},
		{"float8", -1, "DOUBLE"},
		{"numeric", pgNumericMod(10, 5), "DECIMAL(10, 5)"},
		{"numeric", pgNumericMod(38, 0), "DECIMAL(38, 0)"},
		{"numeric", -1, "DECIMAL(38, 18)"},
		{"bpchar", pgCharMod(1), "CHAR(1)"},
		{"bpchar", pgCharMod(3), "CHAR(3)"},
		{"varchar", pgCharMod(20), "VARCHAR(20)"},
		{"varchar", -1, "STRING"},
		{"text", -1, "STRING"},
		{"uuid", -1, "VARCHAR(36)"},
		{"timestamp", 5, "TIMESTAMP(5)"},
		{"timestamp", -1, "TIMESTAMP(6)"},
		{"timestamptz", 3, "TIMESTAMP_LTZ(3)"},
		{"timestamptz", -1, "TIMESTAMP_LTZ(6)"},
		{"time", 0, "TIME(0)"},
		{"time", -1, "TIME(6)"},
		{"date", -1, "DATE"},
		{"_int4", -1, "ARRAY<INT>"},
		{"_bytea", -1, "ARRAY<BYTES>"},
		{"_numeric", pgNumericMod(10, 2), "ARRAY<DECIMAL(10, 2)>"},
		{"_numeric", -1, "ARRAY<DECIMAL(38, 18)>"},
		{"_bpchar", pgCharMod(3), "ARRAY<CHAR(3)>"},
		{"_varchar", pgCharMod(20), "ARRAY<VARCHAR(20)>"},
		{"_text", -1, "ARRAY<STRING>"},
		{"_timestamp", 5, "ARRAY<TIMESTAMP(5)>"},
		{"_timestamptz", -1, "ARRAY<TIMESTAMP_LTZ(6)>"},
		{"_time", 0, "ARRAY<TIME(0)>"},
		{"_date", -1, "ARRAY<DATE>"},
		{"_bool", -1, "ARRAY<BOOLEAN>"},
		{"_float8", -1, "ARRAY<DOUBLE>"},
	}
	for _, c := range cases {
		got, err := PostgresColumnType(c.typ, c.mod)
		if err != nil {
			t.Errorf("%s(%d): %v", c.typ, c.mod, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s(%d) = %s, want %s", c.typ, c.mod, got, c.want)
		}
	}
	for _, typ := range []string{"json", "jsonb", "interval", "timetz", "money", "inet", "_uuid", "_json", "mood", "bit", "xml"} {
		_, err := PostgresColumnType(typ, -1)
		var u *UnsupportedColumnTypeError
		if !errors.As(err, &u) || u.Type != typ || err.Error() != "Doesn't support Postgres type '"+typ+"' yet" {
			t.Errorf("%s: %v", typ, err)
		}
	}
	if _, err := PostgresColumnType("numeric", pgNumericMod(50, 2)); err == nil || !strings.Contains(err.Error(), "numeric(50,2)") {
		t.Errorf("numeric(50,2): %v", err)
	}
}

func TestMySQLColumnType(t *testing.T) {
	// the columns of Flink's MySqlCatalogTestBase t_all_types, in a
	// database of character set utf8 (3 bytes a character)
	cases := []struct {
		dataType, columnType string
		p, s, dp, chars      int64
		want                 string
	}{
		{"bigint", "bigint(20)", 19, 0, 0, 0, "BIGINT"},
		{"bigint", "bigint(20) unsigned", 20, 0, 0, 0, "DECIMAL(20, 0)"},
		{"binary", "binary(100)", 0, 0, 0, 100, "BYTES"},
		{"bit", "bit(1)", 1, 0, 0, 0, "BOOLEAN"},
		{"blob", "blob", 0, 0, 0, 65535, "BYTES"},
		{"char", "char(10)", 0, 0, 0, 10, "CHAR(10)"},
		{"date", "date", 0, 0, 0, 0, "DATE"},
		{"datetime", "datetime", 0, 0, 0, 0, "TIMESTAMP(0)"},
		{"decimal", "decimal(10,0)", 10, 0, 0, 0, "DECIMAL(10, 0)"},
		{"decimal", "decimal(10,0) unsigned", 10, 0, 0, 0, "DECIMAL(11, 0)"},
		{"double", "double", 22, 0, 0, 0, "DOUBLE"},
		{"double", "double unsigned", 22, 0, 0, 0, "DOUBLE"},
		{"enum", "enum('enum1','enum2','enum11')", 0, 0, 0, 6, "CHAR(6)"},
		{"float", "float", 12, 0, 0, 0, "FLOAT"},
		{"float", "float unsigned", 12, 0, 0, 0, "FLOAT"},
		{"int", "int(11)", 10, 0, 0, 0, "INT"},
		{"int", "int(10) unsigned", 10, 0, 0, 0, "BIGINT"},
		{"longblob", "longblob", 0, 0, 0, 0, "BYTES"},
		{"longtext", "longtext", 0, 0, 0, 1431655765, "STRING"},
		{"mediumblob", "mediumblob", 0, 0, 0, 0, "BYTES"},
		{"mediumint", "mediumint(9)", 7, 0, 0, 0, "INT"},
		{"mediumint", "mediumint(8) unsigned", 8, 0, 0, 0, "INT"},
		{"mediumtext", "mediumtext", 0, 0, 0, mysqlCharLength("mediumtext", 16777215, 16777215, 3), "VARCHAR(5592405)"},
		{"set", "set('set_ele1','set_ele12')", 0, 0, 0, 18, "CHAR(18)"},
		{"smallint", "smallint(6)", 5, 0, 0, 0, "SMALLINT"},
		{"smallint", "smallint(5) unsigned", 5, 0, 0, 0, "INT"},
		{"text", "text", 0, 0, 0, mysqlCharLength("text", 65535, 65535, 3), "VARCHAR(21845)"},
		{"time", "time", 0, 0, 0, 0, "TIME(0)"},
		{"timestamp", "timestamp", 0, 0, 0, 0, "TIMESTAMP(0)"},
		{"tinytext", "tinytext", 0, 0, 0, mysqlCharLength("tinytext", 255, 255, 3), "VARCHAR(85)"},
		{"tinyint", "tinyint(4)", 3, 0, 0, 0, "TINYINT"},
		{"tinyint", "tinyint(3) unsigned", 3, 0, 0, 0, "SMALLINT"},
		{"tinyint", "tinyint(1)", 3, 0, 0, 0, "BOOLEAN"},
		{"tinyblob", "tinyblob", 0, 0, 0, 0, "BYTES"},
		{"varchar", "varchar(255)", 0, 0, 0, 255, "VARCHAR(255)"},
		{"datetime", "datetime(3)", 0, 0, 3, 0, "TIMESTAMP(3)"},
		{"time", "time(3)", 0, 0, 3, 0, "TIME(3)"},
		{"timestamp", "timestamp(3)", 0, 0, 3, 0, "TIMESTAMP(3)"},
		{"varbinary", "varbinary(255)", 0, 0, 0, 255, "BYTES"},
		{"json", "json", 0, 0, 0, 0, "STRING"},
	}
	for _, c := range cases {
		got, err := MySQLColumnType(c.dataType, c.columnType, c.p, c.s, c.dp, c.chars)
		if err != nil {
			t.Errorf("%s: %v", c.columnType, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s = %s, want %s", c.columnType, got, c.want)
		}
	}
	for _, c := range [][2]string{{"year", "YEAR"}, {"geometry", "GEOMETRY"}, {"point", "POINT"}} {
		_, err := MySQLColumnType(c[0], c[0], 0, 0, 0, 0)
		if err == nil || err.Error() != "Doesn't support MySQL type '"+c[1]+"' yet" {
			t.Errorf("%s: %v", c[0], err)
		}
	}
	if _, err := MySQLColumnType("decimal", "decimal(38,2) unsigned", 38, 2, 0, 0); err == nil || !strings.Contains(err.Error(), "MAX_PRECISION 38") {
		t.Errorf("decimal(38,2) unsigned: %v", err)
	}
	if _, err := MySQLColumnType("decimal", "decimal(65,2)", 65, 2, 0, 0); err == nil || !strings.Contains(err.Error(), "DECIMAL(65,2)") {
		t.Errorf("decimal(65,2): %v", err)
	}
}

func TestPostgresTablePath(t *testing.T) {
	for _, c := range []struct{ in, schema, table, err string }{
		{"orders", "public", "orders", ""},
		{"public.orders", "public", "orders", ""},
		{"sales.q1", "sales", "q1", ""},
		{"a.b.c", "", "", "Table name 'a.b.c' is not valid. The parsed length is 3"},
		{".t", "", "", "Schema name is not valid. Null or empty is not allowed"},
		{"s.", "", "", "Table name is not valid. Null or empty is not allowed"},
	} {
		s, tb, err := PostgresTablePath(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: %v, want %s", c.in, err, c.err)
			}
			continue
		}
		if err != nil || s != c.schema || tb != c.table {
			t.Errorf("%q = %q, %q, %v", c.in, s, tb, err)
		}
	}
}

func TestCatalogBaseURL(t *testing.T) {
	for _, c := range []struct{ base, db, url, summary string }{
		{"jdbc:postgresql://127.0.0.1:5432", "riffle", "jdbc:postgresql://127.0.0.1:5432/riffle", "PostgreSQL 127.0.0.1:5432"},
		{"jdbc:postgresql://127.0.0.1:5432/", "riffle", "jdbc:postgresql://127.0.0.1:5432/riffle", "PostgreSQL 127.0.0.1:5432"},
		{"jdbc:postgresql://db.example:6000/?sslmode=require", "x", "jdbc:postgresql://db.example:6000/x?sslmode=require", "PostgreSQL db.example:6000"},
		{"jdbc:postgresql://localhost", "x", "jdbc:postgresql://localhost/x", "PostgreSQL localhost:5432"},
		{"jdbc:mysql://127.0.0.1:3307", "shop", "jdbc:mysql://127.0.0.1:3307/shop", "MySQL 127.0.0.1:3307"},
		{"jdbc:mariadb://127.0.0.1", "shop", "jdbc:mariadb://127.0.0.1/shop", "MariaDB 127.0.0.1:3306"},
		{"jdbc:postgresql://[::1]:5433", "d", "jdbc:postgresql://[::1]:5433/d", "PostgreSQL [::1]:5433"},
	} {
		cat, err := NewCatalog("c", c.db, "u", "p", c.base)
		if err != nil {
			t.Errorf("%s: %v", c.base, err)
			continue
		}
		if got := cat.DatabaseURL(c.db); got != c.url {
			t.Errorf("%s: url %s, want %s", c.base, got, c.url)
		}
		if got := cat.CatalogSummary(); got != c.summary {
			t.Errorf("%s: summary %s, want %s", c.base, got, c.summary)
		}
	}
	for _, c := range []struct{ base, err string }{
		{"postgresql://h:1", "a JDBC URL starts with"},
		{"jdbc:oracle:thin:@h:1521", "expected jdbc:<database>://host:port"},
		{"jdbc:sqlserver://h:1433", "Could not find any jdbc factory that can handle url 'jdbc:sqlserver://h:1433'"},
		{"jdbc:postgresql://h:5432/mydb", "must not name a database ('mydb')"},
		{"jdbc:postgresql://h:notaport", "port 'notaport' is not a number"},
		{"jdbc:postgresql://", "no host"},
		{"jdbc:postgresql://a:1,b:2", "several hosts"},
	} {
		_, err := NewCatalog("c", "d", "u", "p", c.base)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want …%s…", c.base, err, c.err)
		}
	}
	if _, err := NewCatalog("c", "", "u", "p", "jdbc:postgresql://h:1"); err == nil || !strings.Contains(err.Error(), "'default-database' must not be empty") {
		t.Errorf("empty default database: %v", err)
	}
}

func TestCatalogFactoryOptions(t *testing.T) {
	f, err := catalog.FindFactory(map[string]string{"type": "jdbc"})
	if err != nil {
		t.Fatal(err)
	}
	err = catalog.ValidateFactoryOptions(f, map[string]string{"type": "jdbc", "base-url": "jdbc:postgresql://h:1"})
	want := "One or more required options are missing.\n\nMissing required options are:\n\ndefault-database\npassword\nusername"
	if err == nil || err.Error() != want {
		t.Errorf("missing options: %v", err)
	}
	err = catalog.ValidateFactoryOptions(f, map[string]string{"type": "jdbc", "base-url": "u", "default-database": "d", "username": "u", "password": "p", "url": "x"})
	if err == nil || !strings.Contains(err.Error(), "Unsupported options found for 'jdbc'.\n\nUnsupported options:\n\nurl\n\nSupported options:\n\nbase-url\ncompatible-mode\ndefault-database\npassword\nproperty-version\nusername") {
		t.Errorf("unknown option: %v", err)
	}
	if _, err := f.Create("c", map[string]string{"type": "jdbc", "base-url": "jdbc:postgresql://h:1", "default-database": "d", "username": "u", "password": "p", "compatible-mode": "opengauss"}); err == nil || !strings.Contains(err.Error(), "'compatible-mode' = 'opengauss' is not supported") {
		t.Errorf("compatible-mode: %v", err)
	}
}

// The catalog is read-only: every write fails naming the catalog and what
// was refused, without reaching the server.
func TestCatalogReadOnly(t *testing.T) {
	c, err := NewCatalog("pg", "riffle", "u", "p", "jdbc:postgresql://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	p := catalog.NewObjectPath("riffle", "public.t")
	for _, err := range []error{
		c.CreateDatabase("x", nil, false),
		c.DropDatabase("riffle", false, false),
		c.AlterDatabase("riffle", nil, false),
		c.CreateTable(p, nil, false),
		c.DropTable(p, false),
		c.AlterTable(p, nil, false),
		c.RenameTable(p, "u", false),
		c.CreateFunction(p, nil, false),
		c.AlterFunction(p, nil, false),
		c.DropFunction(p, false),
		c.CreatePartition(p, nil, nil, false),
		c.DropPartition(p, nil, false),
		c.AlterPartition(p, nil, nil, false),
		c.AlterTableStatistics(p, catalog.TableStatistics{}, false),
		c.AlterTableColumnStatistics(p, catalog.ColumnStatistics{}, false),
		c.AlterPartitionStatistics(p, nil, catalog.TableStatistics{}, false),
		c.AlterPartitionColumnStatistics(p, nil, catalog.ColumnStatistics{}, false),
	} {
		var ro *ReadOnlyError
		if !errors.As(err, &ro) || !strings.HasPrefix(err.Error(), "Catalog pg is a read-only JDBC catalog: cannot ") {
			t.Errorf("write: %v", err)
		}
	}
	if got := c.CreateTable(p, nil, false).Error(); !strings.Contains(got, "cannot create table riffle.public.t") {
		t.Errorf("create table: %s", got)
	}
}

// Opening a catalog on a port nothing listens on says it cannot reach it.
func TestCatalogUnreachable(t *testing.T) {
	for _, base := range []string{"jdbc:postgresql://127.0.0.1:1", "jdbc:mysql://127.0.0.1:1"} {
		c, err := NewCatalog("c", "riffle", "u", "p", base)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Open()
		var ce *ConnectError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "Failed connecting to "+strings.TrimSuffix(base, "/")+"/riffle via JDBC: cannot reach 127.0.0.1:1") {
			t.Errorf("%s: %v", base, err)
		}
		c.Close()
	}
}
