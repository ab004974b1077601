package table

import (
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/jobgraph"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
)

// TableEnvironment is the entry point of the Table API and SQL (PyFlink's
// TableEnvironment): it owns the catalogs, functions, configuration and
// the jobs it submitted. It is safe for concurrent use; statements run in
// the order they are called.
type TableEnvironment struct {
	settings *EnvironmentSettings
	config   *TableConfig
	catalogs *catalog.Manager
	funcs    *functionCatalog
	modules  *moduleManager

	mu     sync.Mutex
	stdout io.Writer
	// checkPath is the file access policy (SetPathPolicy); nil allows all.
	checkPath func(path string) error
	// clientOptionsUnchecked: SET and statements leave the values of the
	// SQL Client's display options unchecked (StoreClientOptionsUnchecked).
	clientOptionsUnchecked bool
	jobs                   []*JobClient
	// onRestart is OnJobRestart's function (guarded by mu).
	onRestart func(JobRestartEvent)
	// skipped counts rows skipped by ignore-parse-errors, per table.
	skipped map[string]int64
	anonID  int
	// unnamedID numbers the views Table.String registers.
	unnamedID int
	// buffered holds INSERTs of the deprecated InsertInto and SQLUpdate
	// until Execute.
	buffered []plan.Node
	// overwriteSinks are tables registered by RegisterTableSink in
	// OVERWRITE mode.
	overwriteSinks map[string]bool

	// catalogDescriptors are the options and comments of the catalogs
	// CREATE CATALOG made, by name (guarded by mu); DESCRIBE CATALOG
	// describes only these, as Flink keeps a CatalogDescriptor only for
	// them.
	catalogDescriptors map[string]catalogDescriptor

	// resetBase is the configuration RESET returns to: the settings'
	// configuration, or the gateway's defaults of a session
	// (SetSessionDefaults). Touched only by statements, which are
	// serialised.
	resetBase *config.Configuration
	// resetStreaming is the runtime mode RESET returns to when resetBase
	// does not name one.
	resetStreaming bool
	// impliedMode is the execution.runtime-mode value the environment
	// holds without anyone having set it ("" when it was set): the
	// listing of SET leaves it out, as Flink's SQL Gateway lists only
	// what was configured.
	impliedMode string
}

// Create builds a TableEnvironment from settings (nil: streaming mode)
// (PyFlink's TableEnvironment.create).
func Create(settings *EnvironmentSettings) (*TableEnvironment, error) {
	if settings == nil {
		settings = InStreamingMode()
	}
	cfg := config.New()
	if settings.config != nil {
		cfg.AddAll(settings.config)
	}
	base := config.New()
	if settings.config != nil {
		base = settings.config.Clone()
	}
	t := &TableEnvironment{
		settings:       settings,
		config:         newTableConfig(cfg),
		catalogs:       catalog.NewManagerWithBuiltin(settings.builtinCatalog, settings.builtinDatabase),
		stdout:         os.Stdout,
		skipped:        map[string]int64{},
		resetBase:      base,
		resetStreaming: settings.streaming,
	}
	// the settings' mode wins over a runtime mode their configuration
	// names; one that agrees keeps its spelling ('BATCH' stays 'BATCH')
	named, ok := cfg.Get(config.RuntimeMode.Key)
	cfg.Remove(config.RuntimeMode.Key)
	t.setImpliedMode(settings.streaming)
	if ok {
		if strings.EqualFold(named, t.impliedMode) {
			cfg.Set(config.RuntimeMode.Key, named)
		}
		t.impliedMode = ""
	}
	t.funcs = newFunctionCatalog(t)
	t.modules = newModuleManager()
	return t, nil
}

// MustCreate is Create that panics on error (examples and tests).
func MustCreate(settings *EnvironmentSettings) *TableEnvironment {
	t, err := Create(settings)
	if err != nil {
		panic(err)
	}
	return t
}

// SetStdout redirects the output of the print connector (default os.Stdout).
func (t *TableEnvironment) SetStdout(w io.Writer) {
	t.mu.Lock()
	t.stdout = w
	t.mu.Unlock()
}

// SetPathPolicy installs check as the policy for the files tables may
// reach: every source and sink whose table has a 'path' option (the
// filesystem connector) calls check with it while the statement is
// planned, and the statement fails with check's error. riffle gateway
// --allow-path installs one; nil (the default) allows every path.
func (t *TableEnvironment) SetPathPolicy(check func(path string) error) {
	t.mu.Lock()
	t.checkPath = check
	t.mu.Unlock()
}

// StoreClientOptionsUnchecked makes SET store the values of the SQL
// Client's display options (sql-client.display.max-column-width,
// table.display.max-column-width; config.IsClientDisplayOption) without
// checking them, and statements run whatever they hold, as Flink's SQL
// Gateway stores any SET in the session's configuration: the client that
// shows a result reads them and reports a bad one. The gateway's sessions
// call it; an embedded environment refuses a bad value at SET.
func (t *TableEnvironment) StoreClientOptionsUnchecked() {
	t.mu.Lock()
	t.clientOptionsUnchecked = true
	t.mu.Unlock()
}

// checkOption is config.CheckValue, except for a display option of an
// environment that stores them unchecked.
func (t *TableEnvironment) checkOption(key, value string) error {
	t.mu.Lock()
	unchecked := t.clientOptionsUnchecked
	t.mu.Unlock()
	if unchecked && config.IsClientDisplayOption(key) {
		return nil
	}
	return config.CheckValue(key, value)
}

func (t *TableEnvironment) pathPolicy() func(string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.checkPath
}

// Catalogs gives access to the catalog manager (for the workbench's
// catalog tree and completion).
func (t *TableEnvironment) Catalogs() *catalog.Manager { return t.catalogs }

// SetSessionDefaults makes RESET return the configuration to defaults,
// as Flink's SQL Gateway resets a session to the gateway's default
// configuration (its flink-conf), dropping the properties the session was
// opened with and whatever SET changed: RESET clears all but defaults and
// selects the runtime mode they name (streaming when they name none);
// RESET 'key' restores the key's default or removes the key. The current
// configuration is left as it is. defaults may be nil (no defaults).
func (t *TableEnvironment) SetSessionDefaults(defaults map[string]string) {
	base := config.New()
	for k, v := range defaults {
		base.Set(k, v)
	}
	t.resetBase = base
	t.resetStreaming = !base.IsBatch()
}

// setImpliedMode puts the runtime mode into the configuration unless it
// names one already, and notes it as implied (not listed by SET).
func (t *TableEnvironment) setImpliedMode(streaming bool) {
	t.impliedMode = ""
	if _, ok := t.config.conf.Get(config.RuntimeMode.Key); ok {
		return
	}
	mode := "streaming"
	if !streaming {
		mode = "batch"
	}
	t.config.conf.Set(config.RuntimeMode.Key, mode)
	t.impliedMode = mode
}

// IsStreaming reports whether the environment runs in streaming mode
// (execution.runtime-mode).
func (t *TableEnvironment) IsStreaming() bool { return !t.config.conf.IsBatch() }

// SkippedRows returns the number of rows skipped so far because of
// ignore-parse-errors options, per table (fully qualified name).
func (t *TableEnvironment) SkippedRows() map[string]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]int64{}
	for k, v := range t.skipped {
		out[k] = v
	}
	return out
}

func (t *TableEnvironment) noteSkipped(table string, n int64) {
	t.mu.Lock()
	t.skipped[table] += n
	t.mu.Unlock()
}

// bindContext is the binder's view of the session.
func (t *TableEnvironment) bindContext() *plan.Context {
	zone, err := t.config.conf.TimeZone()
	if err != nil {
		zone = time.UTC
	}
	return &plan.Context{Catalogs: t.catalogs, Functions: t.funcs.lookup, Config: t.config.conf, Streaming: t.IsStreaming(), Zone: zone}
}

// evalCtx is the expression context of a job.
func (t *TableEnvironment) evalCtx() *expr.Ctx {
	zone, err := t.config.conf.TimeZone()
	if err != nil {
		zone = time.Local
	}
	return &expr.Ctx{Zone: zone, Start: time.Now(), Streaming: t.IsStreaming(), JobParams: t.jobParams()}
}

// jobParams parses pipeline.global-job-parameters ("k1:v1,k2:v2").
func (t *TableEnvironment) jobParams() map[string]string {
	v := t.config.conf.GetString(globalJobParameters, "")
	if v == "" {
		return nil
	}
	return config.ParseMapValue(v)
}

// startJob submits a job graph, tracking the user functions the job opens
// so that they are closed when it ends.
func (t *TableEnvironment) startJob(ctx context.Context, name string, g *runtime.Graph) (*runtime.Job, error) {
	ev := t.evalCtx()
	instances.register(ev)
	cfg := t.jobConfig()
	if t.IsStreaming() {
		cp, err := t.checkpointConfig()
		if err != nil {
			_ = instances.release(ev)
			return nil, err
		}
		cfg.Checkpoint = cp
		if cfg.DiskState, err = t.stateBackend(); err != nil {
			_ = instances.release(ev)
			return nil, err
		}
		if cfg.Restart, err = t.restartStrategy(cp.Interval > 0); err != nil {
			_ = instances.release(ev)
			return nil, err
		}
		cfg.OnRestart = t.restartHook()
	}
	job, err := runtime.Submit(context.WithoutCancel(ctx), name, g, cfg, ev, !t.IsStreaming())
	if err != nil {
		_ = instances.release(ev)
		return nil, err
	}
	go func() {
		<-job.Done()
		_ = instances.release(ev)
	}()
	return job, nil
}

func (t *TableEnvironment) jobConfig() runtime.JobConfig {
	c := runtime.DefaultJobConfig()
	c.WatermarkEvery = t.config.conf.GetDuration(config.AutoWatermarkInterval.Key, 200*time.Millisecond)
	c.IdleTimeout = t.config.conf.GetDuration(config.SourceIdleTimeout.Key, 0)
	c.StateTTL = t.config.conf.GetDuration(config.StateTTL.Key, 0)
	c.MiniBatch = t.config.conf.GetBoolean(config.MiniBatchEnabled.Key, false)
	c.MemoryLimit = runtime.DefaultMemoryLimit()
	if n, isDefault, err := config.ParseJobMemoryLimit(t.config.conf.GetString(config.JobMemoryLimit.Key, "")); err == nil && !isDefault {
		c.MemoryLimit = n
	}
	if n, err := config.ParseExchangeMaxBytesPerChannel(t.config.conf.GetString(config.ExchangeMaxBytesPerChannel.Key, "")); err == nil {
		c.ChannelBytes = n
		if n == 0 {
			c.ChannelBytes = -1 // count only
		}
	}
	return c
}

func (t *TableEnvironment) planEnv() *physical.Env {
	t.mu.Lock()
	stdout, checkPath := t.stdout, t.checkPath
	t.mu.Unlock()
	return &physical.Env{Config: t.config.conf, Streaming: t.IsStreaming(), Stdout: stdout, Skipped: t.noteSkipped,
		CheckPath: checkPath}
}

// reuse is the session's table.optimizer.reuse-sub-plan-enabled and
// reuse-source-enabled (source reuse only with sub-plan reuse, as Flink).
func (t *TableEnvironment) reuse() physical.Reuse {
	sub := t.config.conf.GetBoolean(config.ReuseSubPlan.Key, true)
	return physical.Reuse{SubPlan: sub, Source: sub && t.config.conf.GetBoolean(config.ReuseSource.Key, true)}
}

// submit builds and starts a job for a physical plan whose collect sink,
// if any, feeds coll.
func (t *TableEnvironment) submit(ctx context.Context, name, statement string, root *physical.Node, coll *runtime.Collector) (*JobClient, error) {
	g, nodes, err := jobgraph.Build(coll, t.reuse(), root)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = t.config.conf.GetString(config.PipelineName.Key, "")
	}
	if name == "" {
		name = "collect"
		if s, ok := root.Op.(*physical.Sink); ok && !s.Collect {
			name = "insert-into_" + s.Table
		}
	}
	job, err := t.startJob(ctx, name, g)
	if err != nil {
		return nil, err
	}
	jc := &JobClient{job: job, statement: statement, plan: root, nodes: nodes}
	t.mu.Lock()
	t.jobs = append(t.jobs, jc)
	t.mu.Unlock()
	return jc, nil
}

// Jobs lists the jobs this environment submitted, oldest first.
func (t *TableEnvironment) Jobs() []*JobClient {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]*JobClient(nil), t.jobs...)
}

// JobByID finds a submitted job.
func (t *TableEnvironment) JobByID(id string) (*JobClient, bool) {
	for _, j := range t.Jobs() {
		if j.JobID() == id {
			return j, true
		}
	}
	return nil, false
}

// ListCatalogs lists the registered catalogs, sorted (PyFlink's
// list_catalogs).
func (t *TableEnvironment) ListCatalogs() []string { return t.catalogs.ListCatalogs() }

// ListDatabases lists the databases of the current catalog (PyFlink's
// list_databases); it fails when the catalog cannot list them.
func (t *TableEnvironment) ListDatabases() ([]string, error) {
	c, err := t.catalogs.Catalog(t.catalogs.CurrentCatalog())
	if err != nil {
		return nil, err
	}
	return c.ListDatabases()
}

// ListTables lists the tables and views, temporary and permanent, of the
// current database, sorted (PyFlink's list_tables).
func (t *TableEnvironment) ListTables() ([]string, error) {
	return t.catalogs.ListTables(t.catalogs.CurrentCatalog(), t.catalogs.CurrentDatabase(), nil)
}

// ListViews lists the views, temporary and permanent, of the current
// database (PyFlink's list_views).
func (t *TableEnvironment) ListViews() ([]string, error) {
	k := catalog.KindView
	return t.catalogs.ListTables(t.catalogs.CurrentCatalog(), t.catalogs.CurrentDatabase(), &k)
}

// ListTemporaryTables lists the temporary tables and views of the current
// database (PyFlink's list_temporary_tables).
func (t *TableEnvironment) ListTemporaryTables() []string {
	return t.catalogs.ListTemporary(t.catalogs.CurrentCatalog(), t.catalogs.CurrentDatabase(), nil)
}

// ListTemporaryViews lists the temporary views of the current database
// (PyFlink's list_temporary_views).
func (t *TableEnvironment) ListTemporaryViews() []string {
	k := catalog.KindView
	return t.catalogs.ListTemporary(t.catalogs.CurrentCatalog(), t.catalogs.CurrentDatabase(), &k)
}

// UseCatalog sets the current catalog and, as Flink does, the current
// database to that catalog's default database (PyFlink's use_catalog). An
// unknown catalog is an error.
func (t *TableEnvironment) UseCatalog(name string) error { return t.catalogs.SetCurrentCatalog(name) }

// UseDatabase sets the current database, which must exist in the current
// catalog (PyFlink's use_database).
func (t *TableEnvironment) UseDatabase(name string) error { return t.catalogs.SetCurrentDatabase(name) }

// RegisterCatalog registers and opens a catalog under a unique name; its
// tables become accessible (PyFlink's register_catalog). An empty or taken
// name, a nil catalog (including a typed nil pointer) and an error from the
// catalog's Open are errors.
func (t *TableEnvironment) RegisterCatalog(name string, c catalog.Catalog) error {
	if c == nil || isNilPointer(c) {
		return errorf("RegisterCatalog: nil catalog for %q", name)
	}
	return t.catalogs.RegisterCatalog(name, c)
}

// isNilPointer reports an interface holding a nil pointer, map, slice,
// func or channel, which a plain == nil check misses.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

func sortedStrings(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// errorf builds a plain error (validation failures that have no position).
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
