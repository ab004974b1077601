//go:build interop

package interop

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/catalog"
	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/connector/jdbc"
	"github.com/riffle-sql/riffle/engine/table"
)

// Riffle's JDBC catalog (Flink's JdbcCatalog) on the real PostgreSQL and
// MariaDB of scripts/db.sh: CREATE CATALOG … 'type' = 'jdbc', then SHOW
// DATABASES / SHOW TABLES / DESCRIBE / SELECT through it as a user types
// them, with no DDL for the tables; every mapped column type; the
// catalog's refusal of writes; its errors for a server it cannot use.

// jcEnv is a batch TableEnvironment in UTC.
func jcEnv(t *testing.T) *table.TableEnvironment {
	t.Helper()
	env, err := table.Create(table.InBatchMode())
	if err != nil {
		t.Fatal(err)
	}
	env.GetConfig().Set("table.dml-sync", "true")
	env.GetConfig().Set("table.local-time-zone", "UTC")
	return env
}

// jcRun runs a statement and returns its rows, each value printed with
// %v (NULL for nil) and the values joined by " | ".
func jcRun(t *testing.T, env *table.TableEnvironment, stmt string) []string {
	t.Helper()
	rows, err := jcTry(env, stmt)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	return rows
}

func jcTry(env *table.TableEnvironment, stmt string) ([]string, error) {
	res, err := env.ExecuteSQL(stmt)
	if err != nil {
		return nil, err
	}
	it, err := res.Collect()
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []string
	for it.Next() {
		var vals []string
		for _, v := range it.Row().Values {
			if v == nil {
				vals = append(vals, "NULL")
			} else {
				vals = append(vals, fmt.Sprint(v))
			}
		}
		out = append(out, strings.Join(vals, " | "))
	}
	return out, it.Err()
}

// jcDescribe is DESCRIBE's name, type, null and key columns.
func jcDescribe(t *testing.T, env *table.TableEnvironment, name string) []string {
	t.Helper()
	var out []string
	for _, r := range jcRun(t, env, "DESCRIBE "+name) {
		f := strings.Split(r, " | ")
		out = append(out, strings.Join(f[:4], " | "))
	}
	return out
}

func jcEqual(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func jcContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func jcCreateCatalog(name, baseURL, db, user, password string) string {
	return fmt.Sprintf("CREATE CATALOG %s WITH ('type' = 'jdbc', 'base-url' = '%s', 'default-database' = '%s', 'username' = '%s', 'password' = '%s')",
		name, baseURL, db, user, password)
}

func TestJdbcCatalogPostgres(t *testing.T) {
	pg := PostgresFromEnv(t)
	db := pg.CreateDatabase(t, "jcat_pg")
	pg.CreateDatabase(t, "jcat_pg_other")
	db.Exec(t,
		`CREATE SCHEMA sales`,
		`CREATE TABLE public.orders (id serial PRIMARY KEY, customer varchar(20) NOT NULL, amount numeric(10, 2), placed timestamp(3), note text)`,
		`INSERT INTO public.orders (customer, amount, placed, note) VALUES
			('ada', 12.50, '2026-12-01 10:00:00.123', 'first'),
			('bob', 7.25, '2026-12-01 11:30:00', NULL),
			('cy', 100.00, '2026-12-02 09:15:00.5', 'big')`,
		`CREATE TABLE sales.all_types (
			f_int int, f_short smallint NOT NULL, f_long bigint, f_real real, f_double double precision,
			f_numeric numeric(10, 5), f_decimal_default numeric, f_bool boolean, f_text text, f_char char,
			f_character character(3), f_varchar character varying(20), f_varchar_any varchar, f_timestamp timestamp(5),
			f_timestamptz timestamptz(4), f_date date, f_time time(0), f_time6 time, f_bytea bytea, f_uuid uuid,
			f_smallserial smallserial, f_bigserial bigserial,
			f_int_arr integer[], f_text_arr text[], f_numeric_arr numeric(10, 2)[], f_ts_arr timestamp(3)[],
			CONSTRAINT all_types_pk PRIMARY KEY (f_short, f_bigserial))`,
		`CREATE TABLE sales.docs (id int, doc jsonb)`,
		`CREATE TABLE sales.typed_values (f_int int, f_short smallint, f_long bigint, f_real real, f_double double precision,
			f_numeric numeric(10, 5), f_decimal_default numeric, f_bool boolean, f_text text, f_char char,
			f_character character(3), f_varchar character varying(20), f_timestamp timestamp(5),
			f_timestamptz timestamptz(4), f_date date, f_time time(0), f_bytea bytea, f_uuid uuid,
			f_int_arr integer[], f_text_arr text[], f_numeric_arr numeric(10, 2)[], f_ts_arr timestamp(3)[])`,
		`INSERT INTO sales.typed_values VALUES (1, 2, 3, 4.5, 6.6, 7.7, 500, true, 'a', 'b', 'c', 'd', '2016-06-22 19:10:25.12345',
			'2016-06-22 19:10:25.1234+00', '2015-01-01', '00:51:02', '\x0102', '123e4567-e89b-12d3-a456-426614174000',
			'{1,2,3}', '{a,b}', '{7.7,8.8}', '{"2016-06-22 19:10:25.123"}')`,
		`CREATE VIEW public.big_orders AS SELECT * FROM public.orders WHERE amount > 50`,
	)

	env := jcEnv(t)
	base := "jdbc:postgresql://" + net.JoinHostPort(pg.Host, strconv.Itoa(pg.Port))
	jcRun(t, env, jcCreateCatalog("pg", base, "jcat_pg", pg.User, pg.Password))
	t.Cleanup(func() { _, _ = env.ExecuteSQL("DROP CATALOG IF EXISTS pg") })

	// SHOW DATABASES: the server's databases but template0 and template1
	jcRun(t, env, "USE CATALOG pg")
	if got := jcRun(t, env, "SHOW CURRENT DATABASE"); len(got) != 1 || got[0] != "jcat_pg" {
		t.Errorf("SHOW CURRENT DATABASE after USE CATALOG = %v, want the default database jcat_pg", got)
	}
	dbs := jcRun(t, env, "SHOW DATABASES")
	for _, want := range []string{"jcat_pg", "jcat_pg_other", "postgres"} {
		if !jcContains(dbs, want) {
			t.Errorf("SHOW DATABASES = %v, lacks %s", dbs, want)
		}
	}
	for _, hidden := range []string{"template0", "template1"} {
		if jcContains(dbs, hidden) {
			t.Errorf("SHOW DATABASES = %v, shows %s", dbs, hidden)
		}
	}

	// SHOW TABLES: base tables as <schema>.<table>, no views, no system schemas
	jcEqual(t, "SHOW TABLES", jcRun(t, env, "SHOW TABLES"), []string{"public.orders", "sales.all_types", "sales.docs", "sales.typed_values"})
	jcEqual(t, "SHOW TABLES FROM pg.jcat_pg_other", jcRun(t, env, "SHOW TABLES FROM pg.jcat_pg_other"), nil)
	jcRun(t, env, "USE CATALOG default_catalog")

	// DESCRIBE: types as PostgresTypeMapper maps them, NOT NULL, primary key
	jcEqual(t, "DESCRIBE orders", jcDescribe(t, env, "pg.jcat_pg.`public.orders`"), []string{
		"id | INT | false | PRI(id)",
		"customer | VARCHAR(20) | false | NULL",
		"amount | DECIMAL(10, 2) | true | NULL",
		"placed | TIMESTAMP(3) | true | NULL",
		"note | STRING | true | NULL",
	})
	// a name without a schema is in public, as Flink's PostgresTablePath
	jcEqual(t, "DESCRIBE orders without schema", jcDescribe(t, env, "pg.jcat_pg.orders"), jcDescribe(t, env, "pg.jcat_pg.`public.orders`"))
	pk := "PRI(f_short, f_bigserial)"
	jcEqual(t, "DESCRIBE all_types", jcDescribe(t, env, "pg.jcat_pg.`sales.all_types`"), []string{
		"f_int | INT | true | NULL",
		"f_short | SMALLINT | false | " + pk,
		"f_long | BIGINT | true | NULL",
		"f_real | FLOAT | true | NULL",
		"f_double | DOUBLE | true | NULL",
		"f_numeric | DECIMAL(10, 5) | true | NULL",
		"f_decimal_default | DECIMAL(38, 18) | true | NULL",
		"f_bool | BOOLEAN | true | NULL",
		"f_text | STRING | true | NULL",
		"f_char | CHAR(1) | true | NULL",
		"f_character | CHAR(3) | true | NULL",
		"f_varchar | VARCHAR(20) | true | NULL",
		"f_varchar_any | STRING | true | NULL",
		"f_timestamp | TIMESTAMP(5) | true | NULL",
		"f_timestamptz | TIMESTAMP_LTZ(4) | true | NULL",
		"f_date | DATE | true | NULL",
		"f_time | TIME(0) | true | NULL",
		"f_time6 | TIME(6) | true | NULL",
		"f_bytea | BYTES | true | NULL",
		"f_uuid | VARCHAR(36) | true | NULL",
		"f_smallserial | SMALLINT | false | NULL",
		"f_bigserial | BIGINT | false | " + pk,
		"f_int_arr | ARRAY<INT> | true | NULL",
		"f_text_arr | ARRAY<STRING> | true | NULL",
		"f_numeric_arr | ARRAY<DECIMAL(10, 2)> | true | NULL",
		"f_ts_arr | ARRAY<TIMESTAMP(3)> | true | NULL",
	})
	// the catalog table reads through the jdbc connector
	rt, ok, err := env.Catalogs().GetTable(catalog.ObjectIdentifier{Catalog: "pg", Database: "jcat_pg", Object: "public.orders"})
	if err != nil || !ok {
		t.Fatalf("GetTable: %v %v", ok, err)
	}
	opts := rt.Table.Options()
	if opts["connector"] != "jdbc" || opts["url"] != base+"/jcat_pg" || opts["table-name"] != "public.orders" || opts["username"] != pg.User || opts["password"] != pg.Password {
		t.Errorf("options %v", opts)
	}
	if n := rt.Table.Schema().PrimaryKey; n == nil || n.Name != "orders_pkey" {
		t.Errorf("primary key %+v, want the constraint orders_pkey", n)
	}

	// SELECT with no DDL
	jcEqual(t, "SELECT orders", jcRun(t, env, "SELECT id, customer, amount, note FROM pg.jcat_pg.`public.orders` ORDER BY id"), []string{
		"1 | ada | 12.50 | first",
		"2 | bob | 7.25 | NULL",
		"3 | cy | 100.00 | big",
	})
	jcEqual(t, "SELECT aggregate", jcRun(t, env, "SELECT COUNT(*), SUM(amount) FROM pg.jcat_pg.orders WHERE amount > 10"), []string{"2 | 112.50"})
	// a value of every mapped type reads back through the catalog's table
	jcEqual(t, "SELECT typed_values", jcRun(t, env, "SELECT * FROM pg.jcat_pg.`sales.typed_values`"), []string{
		"1 | 2 | 3 | 4.5 | 6.6 | 7.70000 | 500.000000000000000000 | true | a | b | c   | d | 2016-06-22 19:10:25.12345 +0000 UTC | " +
			"2016-06-22 19:10:25.1234 +0000 UTC | 2015-01-01 | 00:51:02 | [1 2] | 123e4567-e89b-12d3-a456-426614174000 | [1 2 3] | [a b] | " +
			"[7.70 8.80] | [2016-06-22 19:10:25.123 +0000 UTC]",
	})

	// a column type Flink cannot map: the error names the table, the column and the type
	_, err = jcTry(env, "DESCRIBE pg.jcat_pg.`sales.docs`")
	if err == nil || !strings.Contains(err.Error(), "Doesn't support Postgres type 'jsonb' on column 'doc' of table jcat_pg.sales.docs in catalog pg yet") {
		t.Errorf("DESCRIBE docs: %v", err)
	}
	_, err = jcTry(env, "SELECT * FROM pg.jcat_pg.`sales.docs`")
	if err == nil || !strings.Contains(err.Error(), "jsonb") {
		t.Errorf("SELECT docs: %v", err)
	}
	// views are not tables of Flink's PostgresCatalog; a missing table is missing
	for _, name := range []string{"`public.big_orders`", "`public.nope`", "`nope.orders`"} {
		if _, err := jcTry(env, "SELECT * FROM pg.jcat_pg."+name); err == nil || !strings.Contains(err.Error(), "not found") && !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("SELECT %s: %v", name, err)
		}
	}

	jcReadOnly(t, env, "pg", "jcat_pg", "`public.orders`")

	// ALTER CATALOG re-creates the catalog from its new options: a wrong
	// password fails and the open catalog stays; a new default database
	// takes effect
	if _, err := jcTry(env, "ALTER CATALOG pg SET ('password' = 'wrong')"); err == nil || !strings.Contains(err.Error(), "authentication failed for user '"+pg.User+"'") {
		t.Errorf("ALTER CATALOG with a wrong password: %v", err)
	}
	jcEqual(t, "SHOW TABLES after the failed ALTER", jcRun(t, env, "SHOW TABLES FROM pg.jcat_pg_other"), nil)
	jcRun(t, env, "ALTER CATALOG pg SET ('password' = '"+pg.Password+"', 'default-database' = 'jcat_pg_other')")
	jcRun(t, env, "USE CATALOG pg")
	jcEqual(t, "SHOW CURRENT DATABASE after ALTER", jcRun(t, env, "SHOW CURRENT DATABASE"), []string{"jcat_pg_other"})
	jcRun(t, env, "USE CATALOG default_catalog")
}

// jcReadOnly: every write through the catalog is refused, saying the
// catalog is read-only.
func jcReadOnly(t *testing.T, env *table.TableEnvironment, cat, db, tbl string) {
	t.Helper()
	for _, stmt := range []string{
		"CREATE TABLE " + cat + "." + db + ".t_new (id INT) WITH ('connector' = 'datagen')",
		"CREATE DATABASE " + cat + ".db_new",
		"DROP TABLE " + cat + "." + db + "." + tbl,
		"DROP DATABASE " + cat + "." + db,
		"ALTER TABLE " + cat + "." + db + "." + tbl + " RENAME TO " + cat + "." + db + ".other",
		"ALTER TABLE " + cat + "." + db + "." + tbl + " SET ('scan.fetch-size' = '10')",
		"CREATE VIEW " + cat + "." + db + ".v AS SELECT 1",
	} {
		_, err := jcTry(env, stmt)
		var ro *jdbc.ReadOnlyError
		if err == nil || !errors.As(err, &ro) && !strings.Contains(err.Error(), "read-only JDBC catalog") {
			t.Errorf("%s: %v, want the read-only error", stmt, err)
		}
	}
}

func TestJdbcCatalogMariaDB(t *testing.T) {
	m := MariaDBFromEnv(t)
	db := m.CreateDatabase(t, "jcat_my")
	m.CreateDatabase(t, "jcat_my_other")
	db.Exec(t,
		`CREATE TABLE orders (id bigint NOT NULL AUTO_INCREMENT PRIMARY KEY, customer varchar(20) NOT NULL, amount decimal(10, 2), placed datetime(3), note text)`,
		`INSERT INTO orders (customer, amount, placed, note) VALUES
			('ada', 12.50, '2026-12-01 10:00:00.123', 'first'),
			('bob', 7.25, '2026-12-01 11:30:00', NULL),
			('cy', 100.00, '2026-12-02 09:15:00.5', 'big')`,
		`CREATE TABLE all_types (
			pid bigint NOT NULL AUTO_INCREMENT, col_bigint bigint, col_bigint_unsigned bigint unsigned, col_binary binary(100),
			col_bit bit(1), col_blob blob, col_char char(10), col_date date, col_datetime datetime, col_decimal decimal(10,0),
			col_decimal_unsigned decimal(10,0) unsigned, col_double double, col_double_unsigned double unsigned,
			col_enum enum('enum1','enum2','enum11'), col_float float, col_float_unsigned float unsigned, col_int int,
			col_int_unsigned int unsigned, col_longblob longblob, col_longtext longtext, col_mediumblob mediumblob,
			col_mediumint mediumint, col_mediumint_unsigned mediumint unsigned, col_mediumtext mediumtext,
			col_set set('set_ele1','set_ele12'), col_smallint smallint, col_smallint_unsigned smallint unsigned,
			col_text text, col_time time, col_timestamp timestamp NULL, col_tinytext tinytext, col_tinyint tinyint,
			col_tinyint_unsigned tinyint unsigned, col_bool boolean, col_tinyblob tinyblob, col_varchar varchar(255),
			col_datetime_p3 datetime(3) NOT NULL, col_time_p3 time(3), col_timestamp_p3 timestamp(3) NULL,
			col_varbinary varbinary(255), col_json json, col_real real,
			PRIMARY KEY (pid)) CHARACTER SET utf8mb3`,
		`CREATE TABLE years (id int, y year)`,
		`CREATE TABLE typed_values (b bit(1), bo boolean, ti tinyint, tu tinyint unsigned, bu bigint unsigned, du decimal(10,0) unsigned,
			e enum('x','yy'), s set('a','b'), tx text, dt datetime(3), tm time(3), ts timestamp(3) NULL, y varbinary(10), j json, iu int unsigned)`,
		`INSERT INTO typed_values VALUES (b'1', true, -1, 255, 18446744073709551615, 9999999999, 'yy', 'a,b', 'text',
			'2021-08-04 01:54:16.463', '09:33:43.5', '2021-08-04 01:54:16.463', x'0102', '{"a":1}', 4294967295)`,
		`CREATE VIEW big_orders AS SELECT * FROM orders WHERE amount > 50`,
	)

	env := jcEnv(t)
	base := "jdbc:mysql://" + net.JoinHostPort(m.Host, strconv.Itoa(m.Port))
	jcRun(t, env, jcCreateCatalog("my", base, "jcat_my", m.User, m.Password))
	// jdbc:mariadb:// names the same server
	jcRun(t, env, jcCreateCatalog("maria", strings.Replace(base, "mysql", "mariadb", 1), "jcat_my", m.User, m.Password))

	dbs := jcRun(t, env, "SHOW DATABASES IN my")
	if !jcContains(dbs, "jcat_my") || !jcContains(dbs, "jcat_my_other") {
		t.Errorf("SHOW DATABASES IN my = %v", dbs)
	}
	for _, hidden := range []string{"information_schema", "mysql", "performance_schema", "sys"} {
		if jcContains(dbs, hidden) {
			t.Errorf("SHOW DATABASES = %v, shows %s", dbs, hidden)
		}
	}
	// tables and views, by their own names, as Flink's MySqlCatalog
	jcEqual(t, "SHOW TABLES", jcRun(t, env, "SHOW TABLES FROM my.jcat_my"), []string{"all_types", "big_orders", "orders", "typed_values", "years"})
	jcEqual(t, "SHOW TABLES maria", jcRun(t, env, "SHOW TABLES FROM maria.jcat_my"), []string{"all_types", "big_orders", "orders", "typed_values", "years"})

	jcEqual(t, "DESCRIBE orders", jcDescribe(t, env, "my.jcat_my.orders"), []string{
		"id | BIGINT | false | PRI(id)",
		"customer | VARCHAR(20) | false | NULL",
		"amount | DECIMAL(10, 2) | true | NULL",
		"placed | TIMESTAMP(3) | true | NULL",
		"note | VARCHAR(16383) | true | NULL",
	})
	// Flink's MySqlCatalogTestBase t_all_types (utf8: TEXT is VARCHAR(21845))
	pk := "PRI(pid)"
	jcEqual(t, "DESCRIBE all_types", jcDescribe(t, env, "my.jcat_my.all_types"), []string{
		"pid | BIGINT | false | " + pk,
		"col_bigint | BIGINT | true | NULL",
		"col_bigint_unsigned | DECIMAL(20, 0) | true | NULL",
		"col_binary | BYTES | true | NULL",
		"col_bit | BOOLEAN | true | NULL",
		"col_blob | BYTES | true | NULL",
		"col_char | CHAR(10) | true | NULL",
		"col_date | DATE | true | NULL",
		"col_datetime | TIMESTAMP(0) | true | NULL",
		"col_decimal | DECIMAL(10, 0) | true | NULL",
		"col_decimal_unsigned | DECIMAL(11, 0) | true | NULL",
		"col_double | DOUBLE | true | NULL",
		"col_double_unsigned | DOUBLE | true | NULL",
		"col_enum | CHAR(6) | true | NULL",
		"col_float | FLOAT | true | NULL",
		"col_float_unsigned | FLOAT | true | NULL",
		"col_int | INT | true | NULL",
		"col_int_unsigned | BIGINT | true | NULL",
		"col_longblob | BYTES | true | NULL",
		"col_longtext | STRING | true | NULL",
		"col_mediumblob | BYTES | true | NULL",
		"col_mediumint | INT | true | NULL",
		"col_mediumint_unsigned | INT | true | NULL",
		"col_mediumtext | VARCHAR(5592405) | true | NULL",
		"col_set | CHAR(18) | true | NULL",
		"col_smallint | SMALLINT | true | NULL",
		"col_smallint_unsigned | INT | true | NULL",
		"col_text | VARCHAR(21845) | true | NULL",
		"col_time | TIME(0) | true | NULL",
		"col_timestamp | TIMESTAMP(0) | true | NULL",
		"col_tinytext | VARCHAR(85) | true | NULL",
		"col_tinyint | TINYINT | true | NULL",
		"col_tinyint_unsigned | SMALLINT | true | NULL",
		"col_bool | BOOLEAN | true | NULL",
		"col_tinyblob | BYTES | true | NULL",
		"col_varchar | VARCHAR(255) | true | NULL",
		"col_datetime_p3 | TIMESTAMP(3) | false | NULL",
		"col_time_p3 | TIME(3) | true | NULL",
		"col_timestamp_p3 | TIMESTAMP(3) | true | NULL",
		"col_varbinary | BYTES | true | NULL",
		"col_json | STRING | true | NULL",
		"col_real | DOUBLE | true | NULL",
	})

	jcEqual(t, "SELECT orders", jcRun(t, env, "SELECT id, customer, amount, note FROM my.jcat_my.orders ORDER BY id"), []string{
		"1 | ada | 12.50 | first",
		"2 | bob | 7.25 | NULL",
		"3 | cy | 100.00 | big",
	})
	jcEqual(t, "SELECT view", jcRun(t, env, "SELECT customer FROM maria.jcat_my.big_orders"), []string{"cy"})
	jcEqual(t, "SELECT typed_values", jcRun(t, env, "SELECT * FROM my.jcat_my.typed_values"), []string{
		"true | true | -1 | 255 | 18446744073709551615 | 9999999999 | yy | a,b | text | 2021-08-04 01:54:16.463 +0000 UTC | " +
			"09:33:43.500 | 2021-08-04 01:54:16.463 +0000 UTC | [1 2] | {\"a\":1} | 4294967295",
	})

	_, err := jcTry(env, "DESCRIBE my.jcat_my.years")
	if err == nil || !strings.Contains(err.Error(), "Doesn't support MySQL type 'YEAR' on column 'y' of table jcat_my.years in catalog my yet") {
		t.Errorf("DESCRIBE years: %v", err)
	}
	if _, err := jcTry(env, "SELECT * FROM my.jcat_my.nope"); err == nil || !strings.Contains(err.Error(), "not found") && !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("SELECT nope: %v", err)
	}
	jcReadOnly(t, env, "my", "jcat_my", "orders")
}

// TestJdbcCatalogErrors: CREATE CATALOG fails at once, saying why, for a
// wrong password, a server that is not there, a default database the
// server lacks, a missing option and a URL of another database; nothing
// is registered.
func TestJdbcCatalogErrors(t *testing.T) {
	pg := PostgresFromEnv(t)
	m := MariaDBFromEnv(t)
	pgBase := "jdbc:postgresql://" + net.JoinHostPort(pg.Host, strconv.Itoa(pg.Port))
	myBase := "jdbc:mysql://" + net.JoinHostPort(m.Host, strconv.Itoa(m.Port))
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := free.Addr().(*net.TCPAddr).Port
	free.Close()
	env := jcEnv(t)
	for _, c := range []struct{ stmt, want string }{
		{jcCreateCatalog("c", pgBase, pg.Database, pg.User, "wrong"), "Failed connecting to " + pgBase + "/" + pg.Database + " via JDBC: authentication failed for user '" + pg.User + "'"},
		{jcCreateCatalog("c", myBase, m.Database, m.User, "wrong"), "Failed connecting to " + myBase + "/" + m.Database + " via JDBC: authentication failed for user '" + m.User + "'"},
		{jcCreateCatalog("c", fmt.Sprintf("jdbc:postgresql://127.0.0.1:%d", closedPort), "riffle", "u", "p"), fmt.Sprintf("cannot reach 127.0.0.1:%d: connection refused", closedPort)},
		{jcCreateCatalog("c", fmt.Sprintf("jdbc:mysql://127.0.0.1:%d", closedPort), "riffle", "u", "p"), fmt.Sprintf("cannot reach 127.0.0.1:%d: connection refused", closedPort)},
		{jcCreateCatalog("c", pgBase, "jcat_missing", pg.User, pg.Password), "database 'jcat_missing' does not exist on PostgreSQL"},
		{jcCreateCatalog("c", myBase, "jcat_missing", m.User, m.Password), "database 'jcat_missing' does not exist on MySQL"},
		{"CREATE CATALOG c WITH ('type' = 'jdbc', 'base-url' = '" + pgBase + "', 'username' = 'u', 'password' = 'p')", "Missing required options are:\n\ndefault-database"},
		{jcCreateCatalog("c", "jdbc:sqlserver://127.0.0.1:1433", "d", "u", "p"), "Could not find any jdbc factory that can handle url 'jdbc:sqlserver://127.0.0.1:1433'"},
		{jcCreateCatalog("c", pgBase+"/riffle", "riffle", "u", "p"), "must not name a database ('riffle')"},
	} {
		_, err := jcTry(env, c.stmt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant …%s…", c.stmt, err, c.want)
		}
		if _, ok := env.Catalogs().GetCatalog("c"); ok {
			t.Fatalf("%s: catalog c registered after an error", c.stmt)
		}
	}
}
