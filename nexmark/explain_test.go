package nexmark

import (
	"os"
	"testing"
)

func TestExplainQuery(t *testing.T) {
	name := os.Getenv("NEXMARK_EXPLAIN")
	if name == "" {
		t.Skip("set NEXMARK_EXPLAIN=qN")
	}
	q, _ := Find(name)
	env, done, err := Setup(q, Options{Events: 1000, Parallelism: 1, Rate: 1000000})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	s, err := env.ExplainSQL(q.Insert)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(s)
}
