//go:build interop

package interop

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The tests here run interop/jdbc/JdbcProbe.java, a small program on Flink
// 2.3.0's JDBC driver (the flink-sql-jdbc-driver-bundle jar that DBeaver or
// DataGrip users load), against `riffle gateway` and against the real Flink
// SQL Gateway, and read what it printed.

// runJdbcProbe runs the probe with `java -cp DRIVER:SLF4J JdbcProbe.java URL
// DIR` (the JDK compiles the single file on the fly) and returns its
// standard output.
func runJdbcProbe(t *testing.T, f Flink, url string) string {
	t.Helper()
	java := requireJava(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	driver, err := filepath.Glob(filepath.Join(f.Home, "jdbc", "flink-sql-jdbc-driver-bundle-*.jar"))
	if err != nil || len(driver) == 0 {
		t.Fatalf("no flink-sql-jdbc-driver-bundle jar under %s/jdbc (scripts/flink.sh install gathers it)", f.Home)
	}
	// the bundle leaves the logging API out: Flink documents adding slf4j-api
	slf4j, err := filepath.Glob(filepath.Join(f.Home, "lib", "slf4j-api-*.jar"))
	if err != nil || len(slf4j) == 0 {
		t.Fatalf("no slf4j-api jar under %s/lib", f.Home)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, java, "-cp", driver[0]+string(filepath.ListSeparator)+slf4j[0],
		filepath.Join(root, "interop", "jdbc", "JdbcProbe.java"), url, t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("JdbcProbe against %s: %v\nstdout:\n%s\nstderr:\n%s", url, err, out, stderr.String())
	}
	return string(out)
}

// knownJDBCDifferences are the probe lines (by prefix) where Riffle's
// engine, not its gateway, answers differently from Flink; the comparison
// logs them instead of failing.
var knownJDBCDifferences = map[string]string{}

var uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// TestPeerJDBC runs Flink's JDBC driver against `riffle gateway`: typed
// getters over every common type and NULLs, DDL and INSERT through execute,
// a csv table queried and aggregated, a streaming aggregate's changelog,
// DatabaseMetaData (catalogs, schemas, setSchema), a URL naming catalog,
// database and a session property, and the error of a wrong column.
func TestPeerJDBC(t *testing.T) {
	f := fcRequire(t)
	endpoint := startRiffleGateway(t)
	out := runJdbcProbe(t, f, "jdbc:flink://"+endpoint)
	t.Logf("JdbcProbe output:\n%s", out)
	want := []string{
		"meta: catalog default_catalog schema default_database",
		"column: i INT NOT NULL jdbcType=4 class=java.lang.Integer",
		"column: bi BIGINT NOT NULL jdbcType=-5 class=java.lang.Long",
		"column: dbl DOUBLE NOT NULL jdbcType=8 class=java.lang.Double",
		"column: dec2 DECIMAL(10, 2) NOT NULL jdbcType=3 class=java.math.BigDecimal",
		"column: s CHAR(5) NOT NULL jdbcType=1 class=java.lang.String",
		"column: b BOOLEAN NOT NULL jdbcType=16 class=java.lang.Boolean",
		"column: d DATE NOT NULL jdbcType=91 class=java.sql.Date",
		"column: ts TIMESTAMP(3) NOT NULL jdbcType=93 class=java.sql.Timestamp",
		"column: n INT jdbcType=4 class=java.lang.Integer",
		"column: ns STRING jdbcType=12 class=java.lang.String",
		"row: getInt=42 getLong=7000000000 getDouble=2.5 getBigDecimal=12.34 getString=hello getBoolean=true",
		"row: getDate=2024-01-31 getTimestamp=2024-01-31 10:20:30.123",
		// the driver reports wasNull=false after a NULL, on Flink as well
		"row: getInt(n)=0 wasNull=false getString(ns)=<null> wasNull=false",
		"row: getObject(i)=42 Integer",
		"execute: create table result=false",
		"table: 1 alice 10.50 2024-01-31\ntable: 2 bob 20.25 2024-02-01\ntable: 3 carol 7.00 2024-02-01",
		"table: 2024-01-31 n=1 total=10.50\ntable: 2024-02-01 n=2 total=27.25",
		"execute: show tables result=true\ntable: orders",
		"execute: set result=false",
		"execute: insert result=true",
		"stream: 1 1\nstream: 1 1\nstream: 1 3\nstream: 1 3\nstream: 1 6\nstream: 1 6\nstream: 1 10\nstream: 1 10\nstream: 1 15",
		"catalogs: default_catalog",
		"schemas: default_catalog.default_database\n",
		"meta: after setSchema: catalog default_catalog schema probe_db",
		"schemas: default_catalog.default_database,default_catalog.probe_db",
		// the driver itself does not implement these (on Flink as well)
		// more types through getObject (the driver's getString casts and fails on non-strings, on Flink too)
		"value: ti TINYINT NOT NULL object=Byte:1",
		"value: si SMALLINT NOT NULL object=Short:2",
		"value: f FLOAT NOT NULL object=Float:1.5",
		"value: t TIME(0) NOT NULL object=Time:12:34:56",
		"value: bin BINARY(2) NOT NULL object=byte[]:[1, 2]",
		"value: m MAP<CHAR(1) NOT NULL, INT NOT NULL> NOT NULL object=HashMap:{a=1}",
		"object=Timestamp:1970-01-01 00:00:01.0",
		"value: ch CHAR(4) NOT NULL object=String:ab   string=ab  ",
		"value: neg DOUBLE NOT NULL object=Double:-0.5",
		"unsupported: getTables UnsupportedOperationException",
		"unsupported: getColumns UnsupportedOperationException",
		// a URL with catalog/database and a session property
		"url: catalog default_catalog schema default_database\nurl: ltz 1970-01-01T00:00:00Z",
		"done: ok",
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("the probe did not print\n%s", w)
		}
	}
	reason := regexp.MustCompile(`(?m)^error: reason (.*)$`).FindStringSubmatch(out)
	if reason == nil || reason[1] != "org.apache.calcite.sql.validate.SqlValidatorException: Column 'nosuch' not found in any table" {
		t.Errorf("error reason %q", reason)
	}
}

// TestPeerJDBCMatchesFlink runs the probe against `riffle gateway` and
// against the real Flink SQL Gateway and compares every line (operation
// ids masked) but the known engine differences.
func TestPeerJDBCMatchesFlink(t *testing.T) {
	f := fcRequire(t)
	endpoint := startRiffleGateway(t)
	split := func(who, out string) (lines []string, errLines string) {
	next:
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			l = uuidRe.ReplaceAllString(l, "<operation>")
			if strings.HasPrefix(l, "error: reason ") {
				errLines += l
				continue
			}
			for prefix, why := range knownJDBCDifferences {
				if strings.HasPrefix(l, prefix) {
					t.Logf("%s (known difference: %s): %s", who, why, l)
					continue next
				}
			}
			lines = append(lines, l)
		}
		return lines, errLines
	}
	riffle, re := split("Riffle", runJdbcProbe(t, f, "jdbc:flink://"+endpoint))
	flink, fe := split("Flink", runJdbcProbe(t, f, "jdbc:flink://"+hostPort(f.Gateway)))
	if d := lineDiff(flink, riffle); d != "" {
		t.Errorf("the JDBC driver saw differently (- Flink, + Riffle):\n%s", d)
	}
	if fe == "" || fe != re {
		t.Errorf("error reasons: Flink %q, Riffle %q", fe, re)
	}
}
