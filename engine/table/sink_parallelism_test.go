package table

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// 'sink.parallelism' runs a sink's writers at the table's count rather
// than its input's: a filesystem sink at parallelism 1 behind two source
// instances writes one file holding every row; an updating input reaches
// a sink of another parallelism by its primary key, and without one is
// refused with Flink's message.

// runToEnd executes an INSERT and waits (a minute at most) for its job
// to end.
func runToEnd(t *testing.T, env *TableEnvironment, insert string) {
	t.Helper()
	res, err := env.ExecuteSQL(insert)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := res.JobClient().Wait(ctx); err != nil {
		t.Fatal(err)
	}
}

// partFiles returns the visible files of a filesystem table's folder and
// their lines, sorted.
func partFiles(t *testing.T, dir string) (files int, lines []string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		files++
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	}
	sort.Strings(lines)
	return files, lines
}

func TestSinkParallelismFilesystem(t *testing.T) {
	for _, mode := range []struct {
		name string
		env  func() *TableEnvironment
	}{
		{"batch", func() *TableEnvironment { return MustCreate(InBatchMode()) }},
		{"streaming", func() *TableEnvironment { return MustCreate(InStreamingMode()) }},
	} {
		for _, sinkPar := range []string{"", "1", "3"} {
			t.Run(fmt.Sprintf("%s/sink.parallelism=%q", mode.name, sinkPar), func(t *testing.T) {
				env := mode.env()
				out := filepath.Join(t.TempDir(), "out")
				opt := ""
				if sinkPar != "" {
					opt = ", 'sink.parallelism' = '" + sinkPar + "'"
				}
				mustExec(t, env,
					"SET 'parallelism.default' = '2'",
					`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1000',
						'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '1000')`,
					fmt.Sprintf(`CREATE TABLE out_t (v BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv'%s)`, out, opt))
				// the plan runs the sink at its own parallelism
				plan, err := env.ExplainSQL("INSERT INTO out_t SELECT v FROM gen", JSONExecutionPlan)
				if err != nil {
					t.Fatal(err)
				}
				wantPar := "2"
				if sinkPar != "" {
					wantPar = sinkPar
				}
				sinkAt := strings.LastIndex(plan, "Sink(")
				if sinkAt < 0 || !strings.Contains(plan[sinkAt:], `"parallelism" : `+wantPar) {
					t.Fatalf("the sink does not run at parallelism %s:\n%s", wantPar, plan)
				}
				runToEnd(t, env, "INSERT INTO out_t SELECT v FROM gen")
				files, lines := partFiles(t, out)
				// one per source instance; one; at most one per writer
				// (batches go round-robin: a writer may get none)
				switch {
				case sinkPar == "" && files != 2, sinkPar == "1" && files != 1, sinkPar == "3" && (files < 1 || files > 3):
					t.Fatalf("%d files for sink.parallelism %q", files, sinkPar)
				}
				var want []string
				for v := 1; v <= 1000; v++ {
					want = append(want, fmt.Sprint(v))
				}
				sort.Strings(want)
				if strings.Join(lines, ",") != strings.Join(want, ",") {
					t.Fatalf("the files hold %d rows, not 1..1000 once each", len(lines))
				}
			})
		}
	}
}

func TestSinkParallelismUpdatingInput(t *testing.T) {
	newEnv := func(t *testing.T, out *bytes.Buffer) *TableEnvironment {
		env := MustCreate(InStreamingMode())
		env.SetStdout(out)
		mustExec(t, env,
			"SET 'parallelism.default' = '2'",
			`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'fields.v.kind' = 'sequence',
				'fields.v.start' = '1', 'fields.v.end' = '100')`,
			"CREATE VIEW keyed AS SELECT v % 3 AS k FROM gen")
		return env
	}
	t.Run("no primary key", func(t *testing.T) {
		env := newEnv(t, &bytes.Buffer{})
		mustExec(t, env, `CREATE TABLE out_t (k BIGINT, n BIGINT) WITH ('connector' = 'print', 'sink.parallelism' = '1')`)
		_, err := env.ExecuteSQL("INSERT INTO out_t SELECT k, COUNT(*) FROM keyed GROUP BY k")
		want := "The sink for table 'default_catalog.default_database.out_t' has a configured parallelism of 1, while the input parallelism is 2. Since the configured parallelism is different from the input's parallelism and the changelog mode is not insert-only, a primary key is required but could not be found."
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("got %v, want %q", err, want)
		}
	})
	t.Run("by primary key", func(t *testing.T) {
		var out bytes.Buffer
		env := newEnv(t, &out)
		mustExec(t, env, `CREATE TABLE out_t (k INT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'print', 'sink.parallelism' = '1')`)
		runToEnd(t, env, "INSERT INTO out_t SELECT k, COUNT(*) FROM keyed GROUP BY k")
		// one writer: no subtask prefix; each key's last change is its
		// final count (its changes stayed in order on one writer)
		last := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if strings.Contains(l, ">") {
				t.Fatalf("a line with a subtask prefix from a single writer: %q", l)
			}
			f := strings.Split(strings.Trim(l[strings.Index(l, "[")+1:], "]"), ", ")
			if len(f) != 2 {
				t.Fatalf("line %q", l)
			}
			if strings.HasPrefix(l, "+I") || strings.HasPrefix(l, "+U") {
				last[f[0]] = f[1]
			}
		}
		if fmt.Sprint(last) != "map[0:33 1:34 2:33]" {
			t.Fatalf("final counts %v, want map[0:33 1:34 2:33]\n%s", last, out.String())
		}
	})
}
