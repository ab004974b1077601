package table

import (
	"path/filepath"
	"strings"
	"testing"
)

// INSERT casts constructed types implicitly as Flink does
// (LogicalTypeCasts.supportsConstructedCasting): a ROW whose field names
// differ from the sink's, an ARRAY<INT> into ARRAY<BIGINT>, a MAP with a
// DECIMAL value into MAP<STRING, DOUBLE>. A ROW of another arity is still
// refused.
func TestInsertCastsConstructedTypes(t *testing.T) {
	env := MustCreate(InBatchMode())
	dir := filepath.Join(t.TempDir(), "p")
	mustExec(t, env, "CREATE TABLE p (r ROW<x INT, y STRING>, a ARRAY<BIGINT>, m MAP<STRING, DOUBLE>) WITH ('connector'='filesystem', 'path'='"+dir+"', 'format'='json')")
	res, err := env.ExecuteSQL("INSERT INTO p SELECT ROW(7, 'seven'), ARRAY[1, 2], MAP['k', 1.5]")
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Wait(0); err != nil {
		t.Fatal(err)
	}
	res, err = env.ExecuteSQL("SELECT r.x, r.y, a, m FROM p")
	if err != nil {
		t.Fatal(err)
	}
	if got := collectResult(t, res); got != "+I[7, seven, [1, 2], {k=1.5}]" {
		t.Errorf("read back %s", got)
	}
	if _, err := env.ExecuteSQL("INSERT INTO p SELECT ROW(7, 'seven', 1), ARRAY[1], MAP['k', 1.5]"); err == nil || !strings.Contains(err.Error(), "Incompatible types for sink column 'r'") {
		t.Errorf("a ROW of another arity: %v", err)
	}
}
