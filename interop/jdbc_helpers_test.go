//go:build interop

package interop

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

// Helpers of the jdbc connector tests: Riffle's engine used as a user
// does (CREATE TABLE ... WITH ('connector' = 'jdbc'), INSERT, SELECT).

// jdbcEnv opens a table environment in UTC whose DML waits for its job.
func jdbcEnv(t testing.TB, streaming bool) *table.TableEnvironment {
	t.Helper()
	s := table.InBatchMode()
	if streaming {
		s = table.InStreamingMode()
	}
	env, err := table.Create(s)
	if err != nil {
		t.Fatal(err)
	}
	env.GetConfig().Set("table.dml-sync", "true")
	env.GetConfig().Set("table.local-time-zone", "UTC")
	return env
}

// jdbcExec runs statements, failing the test on an error.
func jdbcExec(t testing.TB, env *table.TableEnvironment, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if err := jdbcTry(env, s); err != nil {
			t.Fatalf("%s\n-> %v", s, err)
		}
	}
}

// jdbcTry runs one statement and, for a query, drains its rows.
func jdbcTry(env *table.TableEnvironment, stmt string) error {
	res, err := env.ExecuteSQL(stmt)
	if err != nil {
		return err
	}
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
	}
	return it.Err()
}

// jdbcQuery runs a query and returns its rows as Flink prints them
// ("+I[1, a]"), in the order they came.
func jdbcQuery(t testing.TB, env *table.TableEnvironment, query string) []string {
	t.Helper()
	rows, err := jdbcQueryErr(env, query)
	if err != nil {
		t.Fatalf("%s\n-> %v", query, err)
	}
	return rows
}

func jdbcQueryErr(env *table.TableEnvironment, query string) ([]string, error) {
	res, err := env.ExecuteSQL(query)
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
		out = append(out, it.Row().String())
	}
	return out, it.Err()
}

func jdbcSorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// jdbcWith is a WITH clause of the jdbc connector for url and table.
func jdbcWith(url, user, password, tableName string, more ...string) string {
	opts := []string{
		"'connector' = 'jdbc'",
		fmt.Sprintf("'url' = '%s'", url),
		fmt.Sprintf("'table-name' = '%s'", tableName),
		fmt.Sprintf("'username' = '%s'", user),
		fmt.Sprintf("'password' = '%s'", password),
	}
	return "WITH (" + strings.Join(append(opts, more...), ", ") + ")"
}

func jdbcEqual(t testing.TB, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\ngot:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
