package authoring

import (
	"path/filepath"
	"testing"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// connectorData is the connectors' extract of the shared data set.
var connectorData = filepath.Join("..", "..", "engine", "connector", "testdata")

// batchEnv returns a batch environment with the flights extract (2,000
// rows) and airports registered.
func batchEnv(t *testing.T) *table.TableEnvironment {
	t.Helper()
	env := table.MustCreate(table.InBatchMode())
	exec(t, env, "CREATE TABLE flights (`date` TIMESTAMP(0), delay INT, distance INT, origin STRING, destination STRING) WITH ("+
		"'connector' = 'filesystem', 'path' = '"+filepath.Join(connectorData, "flights-head2000.csv")+"', 'format' = 'csv', 'csv.ignore-first-line' = 'true')")
	exec(t, env, "CREATE TABLE airports (iata STRING, name STRING, city STRING, state STRING, country STRING, latitude DOUBLE, longitude DOUBLE) WITH ("+
		"'connector' = 'filesystem', 'path' = '"+filepath.Join(connectorData, "airports.csv")+"', 'format' = 'csv', 'csv.ignore-first-line' = 'true')")
	return env
}

func exec(t *testing.T, env *table.TableEnvironment, stmt string) {
	t.Helper()
	if _, err := env.ExecuteSQL(stmt); err != nil {
		t.Fatalf("%s\n: %v", stmt, err)
	}
}

// rows runs a query and returns its rows (final values, batch mode).
func rows(t *testing.T, env *table.TableEnvironment, query string) ([]*types.Row, []string) {
	t.Helper()
	res, err := env.ExecuteSQL(query)
	if err != nil {
		t.Fatalf("%s\n: %v", query, err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []*types.Row
	for it.Next() {
		out = append(out, it.Row())
	}
	if err := it.Err(); err != nil {
		t.Fatalf("%s\n: %v", query, err)
	}
	return out, res.GetTableSchema().GetFieldNames()
}

// count runs SELECT COUNT(*) FROM (query).
func count(t *testing.T, env *table.TableEnvironment, query string) int64 {
	t.Helper()
	r, _ := rows(t, env, "SELECT COUNT(*) FROM ("+query+")")
	if len(r) != 1 {
		t.Fatalf("COUNT returned %d rows", len(r))
	}
	return r[0].Values[0].(int64)
}
