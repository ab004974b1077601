package ui

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/sql"
)

func TestRecordDDLReplaysToTheSameCatalog(t *testing.T) {
	script := "-- mine\nCREATE TABLE a (x INT) WITH ('connector' = 'datagen');\n"
	steps := []struct{ stmt, want string }{
		// The same CREATE again: nothing to do.
		{"CREATE TABLE a (x INT) WITH ('connector' = 'datagen')",
			"-- mine\nCREATE TABLE a (x INT) WITH ('connector' = 'datagen');\n"},
		// Another object: appended.
		{"CREATE VIEW v AS SELECT x FROM a",
			"-- mine\nCREATE TABLE a (x INT) WITH ('connector' = 'datagen');\n\nCREATE VIEW v AS SELECT x FROM a;\n"},
		// Replacing a: in place, so v still follows it.
		{"CREATE OR REPLACE TABLE a (x BIGINT) WITH ('connector' = 'datagen')",
			"-- mine\nCREATE OR REPLACE TABLE a (x BIGINT) WITH ('connector' = 'datagen');\n\nCREATE VIEW v AS SELECT x FROM a;\n"},
		{"ALTER TABLE a SET ('rows-per-second' = '5')",
			"-- mine\nCREATE OR REPLACE TABLE a (x BIGINT) WITH ('connector' = 'datagen');\n\nCREATE VIEW v AS SELECT x FROM a;\n\nALTER TABLE a SET ('rows-per-second' = '5');\n"},
		// Dropping the view removes it rather than adding a DROP.
		{"DROP VIEW v",
			"-- mine\nCREATE OR REPLACE TABLE a (x BIGINT) WITH ('connector' = 'datagen');\n\nALTER TABLE a SET ('rows-per-second' = '5');\n"},
		// Dropping a removes its CREATE and ALTER.
		{"DROP TABLE a", "-- mine\n"},
		// A table the script never created: the DROP is kept.
		{"DROP TABLE IF EXISTS elsewhere", "-- mine\n\nDROP TABLE IF EXISTS elsewhere;\n"},
		// Created again after a drop: appended after the DROP.
		{"CREATE TABLE elsewhere (y INT) WITH ('connector' = 'datagen')",
			"-- mine\n\nDROP TABLE IF EXISTS elsewhere;\n\nCREATE TABLE elsewhere (y INT) WITH ('connector' = 'datagen');\n"},
	}
	for _, s := range steps {
		st, err := sql.Parse(s.stmt)
		if err != nil {
			t.Fatal(err)
		}
		script, _ = recordDDL(script, s.stmt, st)
		if script != s.want {
			t.Fatalf("after %q:\n%q\nwant:\n%q", s.stmt, script, s.want)
		}
	}
}
