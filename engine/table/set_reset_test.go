package table

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/config"
)

// setListing runs SET and returns its rows as key=value lines.
func setListing(t *testing.T, env *TableEnvironment) string {
	t.Helper()
	res, err := env.ExecuteSQL("SET")
	if err != nil {
		t.Fatal(err)
	}
	for _, ty := range res.Schema().FieldDataTypes() {
		if !ty.Nullable {
			t.Errorf("SET listing column type %s, want nullable STRING as Flink's gateway", ty)
		}
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		v := it.Row().Values
		out = append(out, v[0].(string)+"="+v[1].(string))
	}
	return strings.Join(out, " ")
}

// TestSetListingAndResetAsFlinkGateway follows what Flink 2.3.0's SQL
// Gateway listed for a session opened with {execution.runtime-mode:
// batch, pipeline.name: x} (beside its flink-conf defaults): the session's
// properties; RESET 'pipeline.name' removes the key; RESET drops the
// session's properties, keeps the defaults and lists no runtime mode
// (the session then runs streaming). In a fresh session the listing has
// no runtime mode either until SET names one; it lists the parallelism
// jobs run at, the number of cores while the session does not set it.
func TestSetListingAndResetAsFlinkGateway(t *testing.T) {
	conf := config.New()
	conf.Set("parallelism.default", "1")
	conf.Set("execution.runtime-mode", "batch")
	conf.Set("pipeline.name", "x")
	env := MustCreate(InBatchMode().WithConfiguration(conf))
	env.SetSessionDefaults(map[string]string{"parallelism.default": "1"})
	steps := []struct{ stmt, want string }{
		{"", "execution.runtime-mode=batch parallelism.default=1 pipeline.name=x"},
		{"RESET 'pipeline.name'", "execution.runtime-mode=batch parallelism.default=1"},
		{"SET 'parallelism.default' = '4'", "execution.runtime-mode=batch parallelism.default=4"},
		{"RESET 'parallelism.default'", "execution.runtime-mode=batch parallelism.default=1"},
		{"RESET", "parallelism.default=1"},
	}
	for _, s := range steps {
		if s.stmt != "" {
			mustExec(t, env, s.stmt)
		}
		if got := setListing(t, env); got != s.want {
			t.Errorf("after %q: SET lists %q, want %q", s.stmt, got, s.want)
		}
	}
	if !env.IsStreaming() {
		t.Error("after RESET the session runs batch; Flink's runs streaming (no runtime mode configured)")
	}

	// a fresh environment lists only the parallelism jobs run at: the
	// number of cores, as a Flink distribution's SQL Client lists the
	// parallelism.default of its configuration file
	cores := "parallelism.default=" + strconv.Itoa(runtime.NumCPU())
	fresh := MustCreate(InStreamingMode())
	if got := setListing(t, fresh); got != cores {
		t.Errorf("fresh environment: SET lists %q, want %q", got, cores)
	}
	mustExec(t, fresh, "SET 'execution.runtime-mode' = 'batch'", "SET 'table.local-time-zone' = 'Asia/Tokyo'")
	if got, want := setListing(t, fresh), "execution.runtime-mode=batch "+cores+" table.local-time-zone=Asia/Tokyo"; got != want {
		t.Errorf("SET lists %q, want %q", got, want)
	}
	mustExec(t, fresh, "RESET 'execution.runtime-mode'", "SET 'parallelism.default' = '3'")
	if got, want := setListing(t, fresh), "parallelism.default=3 table.local-time-zone=Asia/Tokyo"; got != want || !fresh.IsStreaming() {
		t.Errorf("after RESET 'execution.runtime-mode': SET lists %q (streaming %v), want %q and streaming", got, fresh.IsStreaming(), want)
	}
	mustExec(t, fresh, "RESET 'parallelism.default'")
	if got, want := setListing(t, fresh), cores+" table.local-time-zone=Asia/Tokyo"; got != want {
		t.Errorf("after RESET 'parallelism.default': SET lists %q, want %q", got, want)
	}
	mustExec(t, fresh, "RESET")
	if got := setListing(t, fresh); got != cores {
		t.Errorf("after RESET: SET lists %q, want %q", got, cores)
	}

	// an environment created in batch mode stays batch after RESET, with
	// the mode implied (not listed)
	batch := MustCreate(InBatchMode())
	mustExec(t, batch, "SET 'execution.runtime-mode' = 'streaming'", "RESET")
	if batch.IsStreaming() || setListing(t, batch) != cores {
		t.Errorf("batch environment after RESET: streaming %v, SET lists %q", batch.IsStreaming(), setListing(t, batch))
	}
}

// TestSetListingKeepsTheModeAsGiven: a session opened with
// execution.runtime-mode 'BATCH' lists it as given, as Flink's gateway
// lists the session's properties.
func TestSetListingKeepsTheModeAsGiven(t *testing.T) {
	conf := config.New()
	conf.Set("execution.runtime-mode", "BATCH")
	env := MustCreate(EnvironmentSettingsFromConfiguration(conf))
	want := "execution.runtime-mode=BATCH parallelism.default=" + strconv.Itoa(runtime.NumCPU())
	if got := setListing(t, env); got != want || env.IsStreaming() {
		t.Errorf("SET lists %q (streaming %v), want %q in batch mode", got, env.IsStreaming(), want)
	}
}
