package table

// Materialized tables (Flink 2.3's CREATE / ALTER / DROP MATERIALIZED
// TABLE, as its SQL Gateway's MaterializedTableManager runs them): the
// table is a catalog table whose content a refresh job derives from its
// definition query. CONTINUOUS mode runs one streaming INSERT job with
// checkpoints every freshness interval; FULL mode overwrites the table
// with a batch job every freshness interval, scheduled in this process
// (Flink hands that schedule to a workflow scheduler plugin).

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Defaults of Flink 2.3's MaterializedTableConfigOptions.
const (
	// materialized-table.default-freshness.continuous
	defaultFreshnessContinuous = 3 * time.Minute
	// materialized-table.default-freshness.full
	defaultFreshnessFull = time.Hour
	// materialized-table.refresh-mode.freshness-threshold: a freshness
	// below it derives CONTINUOUS, at or above it FULL
	freshnessThreshold = 30 * time.Minute
	// partitionFieldsPrefix and dateFormatterSuffix frame the option
	// partition.fields.<column>.date-formatter
	partitionFieldsPrefix = "partition.fields."
	dateFormatterSuffix   = ".date-formatter"
)

// fullRefreshers are the running schedules of FULL materialized tables,
// by environment and table.
var fullRefreshers sync.Map // refresherKey -> *fullRefresher

type refresherKey struct {
	env *TableEnvironment
	id  catalog.ObjectIdentifier
}

// fullRefresher refreshes a FULL materialized table every freshness
// interval until stop is closed; done is closed when it has returned.
type fullRefresher struct {
	stop, done chan struct{}
}

// mtFreshness validates a FRESHNESS literal as Flink's
// MaterializedTableUtils.getMaterializedTableFreshness does: a positive
// whole number of one unit among SECOND, MINUTE, HOUR, DAY and WEEK.
func mtFreshness(lit *sql.IntervalLit) (int64, string, error) {
	q := lit.Qualifier
	switch q.StartUnit {
	case "SECOND", "MINUTE", "HOUR", "DAY", "WEEK":
	default:
		return 0, "", errorf("Materialized table freshness only supports SECOND, MINUTE, HOUR, DAY, WEEK as the time unit.")
	}
	if q.EndUnit != "" {
		return 0, "", errorf("Materialized table freshness only supports SECOND, MINUTE, HOUR, DAY, WEEK as the time unit.")
	}
	v := strings.TrimSpace(lit.Value)
	if lit.Negative {
		v = "-" + v
	}
	n, ok := new(big.Int).SetString(strings.TrimPrefix(v, "+"), 10)
	if !ok || n.Sign() <= 0 || !n.IsInt64() || n.Int64() > 1<<31-1 {
		return 0, "", errorf("The freshness interval currently only supports positive integer type values. But was: %s", v)
	}
	return n.Int64(), q.StartUnit, nil
}

// materializedOf returns a copy of the materialized table id names, or
// Flink's errors when there is none or it is another kind of table.
func (t *TableEnvironment) materializedOf(id catalog.ObjectIdentifier) (*catalog.Table, error) {
	rt, ok, err := t.catalogs.GetTable(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf("Cannot find table '%s' in any of the catalogs [%s], nor as a temporary table.", id, strings.Join(t.catalogs.ListCatalogs(), ", "))
	}
	tb, ok := rt.Table.(*catalog.Table)
	if !ok || tb.Materialized == nil {
		return nil, errorf("Table %s is not a materialized table, does not support materialized table related operation.", id)
	}
	// a copy: the catalog's object is shared with readers (the FULL
	// schedule's goroutine); changes go back through storeMaterialized
	return tb.Copy().(*catalog.Table), nil
}

// storeMaterialized writes a changed materialized table back to its
// catalog.
func (t *TableEnvironment) storeMaterialized(id catalog.ObjectIdentifier, tb *catalog.Table) error {
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return err
	}
	return c.AlterTable(id.Path(), tb, false)
}

func (x *execution) createMaterializedTable(s *sql.CreateMaterializedTable) (*TableResult, error) {
	t := x.env
	id, err := x.qualify(s.Name)
	if err != nil {
		return nil, err
	}
	m := &catalog.Materialized{LogicalRefreshMode: "AUTOMATIC", RefreshStatus: catalog.RefreshInitializing}
	if s.RefreshMode != "" {
		m.LogicalRefreshMode = s.RefreshMode
	}
	if s.Freshness != nil {
		if m.FreshnessInterval, m.FreshnessUnit, err = mtFreshness(s.Freshness); err != nil {
			return nil, err
		}
	} else if s.RefreshMode == catalog.RefreshFull {
		m.FreshnessInterval, m.FreshnessUnit = int64(defaultFreshnessFull/time.Hour), "HOUR"
	} else {
		m.FreshnessInterval, m.FreshnessUnit = int64(defaultFreshnessContinuous/time.Minute), "MINUTE"
	}
	switch {
	case s.RefreshMode != "":
		m.RefreshMode = s.RefreshMode
	case m.Freshness() < freshnessThreshold:
		m.RefreshMode = catalog.RefreshContinuous
	default:
		m.RefreshMode = catalog.RefreshFull
	}

	n, err := binder.BindQuery(t.bindContext(), s.Query, x.text, x.base)
	if err != nil {
		return nil, err
	}
	var names []string
	var ts []*types.DataType
	for _, c := range n.Columns() {
		names = append(names, c.Name)
		ts = append(ts, c.Type.WithTimeAttr(types.NoTimeAttr))
	}
	schema := types.NewPhysicalSchema(names, ts)
	if c := s.Constraint; c != nil {
		if c.Kind != "PRIMARY KEY" {
			return nil, &ValidationError{Line: c.Pos().Line, Column: c.Pos().Column, Msg: "UNIQUE constraint is not supported yet"}
		}
		var cols []string
		for _, col := range c.Columns {
			i := schema.Index(col.Name)
			if i < 0 {
				return nil, errorf("Primary key column '%s' is not defined in the schema at line %d, column %d", col.Name, col.Pos().Line, col.Pos().Column)
			}
			cols = append(cols, col.Name)
		}
		name := "PK_" + strings.Join(cols, "_")
		if c.Name != nil {
			name = c.Name.Name
		}
		for _, col := range cols {
			if schema.Columns[schema.Index(col)].Type.Nullable {
				return nil, errorf("Invalid primary key '%s'. Column '%s' is nullable.", name, col)
			}
		}
		schema.PrimaryKey = &types.UniqueConstraint{Name: name, Columns: cols}
	}
	var partKeys []string
	for _, p := range s.PartitionBy {
		if schema.Index(p.Name) < 0 {
			return nil, errorf("Partition column '%s' not defined in the query's schema. Available columns: ['%s'].", p.Name, strings.Join(names, "', '"))
		}
		partKeys = append(partKeys, p.Name)
	}
	options := props(s.Options)
	for _, k := range sortedKeys(options) {
		if !strings.HasPrefix(k, partitionFieldsPrefix) || !strings.HasSuffix(k, dateFormatterSuffix) {
			continue
		}
		col := strings.TrimSuffix(strings.TrimPrefix(k, partitionFieldsPrefix), dateFormatterSuffix)
		isPart := false
		for _, p := range partKeys {
			isPart = isPart || p == col
		}
		if !isPart {
			return nil, errorf("Column '%s' referenced by materialized table option '%s' isn't a partition column. Available partition columns: ['%s'].", col, k, strings.Join(partKeys, "', '"))
		}
		if !schema.Columns[schema.Index(col)].Type.IsString() {
			return nil, errorf("Materialized table option '%s' only supports referring to char, varchar and string type partition column. Column %s type is %s.", k, col, schema.Columns[schema.Index(col)].Type)
		}
	}
	comment := ""
	if s.Comment != nil {
		comment = *s.Comment
	}
	m.DefinitionQuery = x.source(s.Query)
	m.ExpandedQuery = t.expandedViewQuery(m.DefinitionQuery, s.Query)
	tbl := &catalog.Table{TableSchema: schema, TableOptions: options, TableComment: comment, PartitionKeys: partKeys, Materialized: m}
	if err := t.registerTable(id, tbl.Copy(), false, false); err != nil {
		return nil, err
	}
	if m.RefreshMode == catalog.RefreshContinuous {
		if err := t.startContinuousRefresh(x.ctx, id, tbl, nil, ""); err != nil {
			// weak atomicity, as Flink: the table goes when its job fails to start
			if c, cerr := t.catalogs.Catalog(id.Catalog); cerr == nil {
				_ = c.DropTable(id.Path(), true)
			}
			return nil, fmt.Errorf("Submit continuous refresh job for materialized table %s occur exception.\n%w", id, err)
		}
		return okResult(), nil
	}
	tbl.Materialized.RefreshStatus = catalog.RefreshActivated
	if err := t.storeMaterialized(id, tbl); err != nil {
		return nil, err
	}
	t.startFullRefresher(id, m.Freshness())
	return okResult(), nil
}

// refreshEnv is an environment for a refresh job of this one: the same
// catalogs, functions and modules, a copy of the configuration with
// overrides set. Its jobs are listed by this environment.
func (t *TableEnvironment) refreshEnv(overrides map[string]string) *TableEnvironment {
	conf := t.config.conf.Clone()
	for k, v := range overrides {
		conf.Set(k, v)
	}
	t.mu.Lock()
	stdout, checkPath := t.stdout, t.checkPath
	t.mu.Unlock()
	return &TableEnvironment{
		settings: t.settings, config: newTableConfig(conf), catalogs: t.catalogs, funcs: t.funcs, modules: t.modules,
		stdout: stdout, checkPath: checkPath, skipped: map[string]int64{}, resetBase: t.resetBase,
		resetStreaming: t.resetStreaming, catalogDescriptors: map[string]catalogDescriptor{},
	}
}

// runRefresh runs an INSERT of a refresh in an environment with the
// overrides and lists its job here.
func (t *TableEnvironment) runRefresh(ctx context.Context, statement string, overrides map[string]string) (*TableResult, error) {
	res, err := t.refreshEnv(overrides).ExecuteSQLContext(ctx, statement)
	if err != nil {
		return nil, err
	}
	if res.job != nil {
		t.mu.Lock()
		t.jobs = append(t.jobs, res.job)
		t.mu.Unlock()
	}
	return res, nil
}

// tableWithOptions renders `c`.`d`.`t` with an OPTIONS hint of the
// dynamic options, if any (Flink's generateTableWithDynamicOptions).
func tableWithOptions(id catalog.ObjectIdentifier, options map[string]string) string {
	if len(options) == 0 {
		return id.String()
	}
	var kv []string
	for _, k := range sortedKeys(options) {
		kv = append(kv, fmt.Sprintf("'%s'='%s'", strings.ReplaceAll(k, "'", "''"), strings.ReplaceAll(options[k], "'", "''")))
	}
	return id.String() + " /*+ OPTIONS(" + strings.Join(kv, ", ") + ") */"
}

// startContinuousRefresh starts the streaming refresh job of a CONTINUOUS
// table (from restorePath when not empty), with checkpoints every
// freshness interval unless the session sets its own interval, and
// records it in the catalog as ACTIVATED. With table.dml-sync the
// statement waits for the job's end, as Flink's gateway does (a bounded
// query's table is complete when CREATE returns).
func (t *TableEnvironment) startContinuousRefresh(ctx context.Context, id catalog.ObjectIdentifier, tbl *catalog.Table, dynamic map[string]string, restorePath string) error {
	m := tbl.Materialized
	ov := map[string]string{
		config.RuntimeMode.Key:  "streaming",
		config.PipelineName.Key: fmt.Sprintf("Materialized_table_%s_continuous_refresh_job", id),
	}
	if _, set := t.config.conf.Get(config.CheckpointingInterval.Key); !set {
		ov[config.CheckpointingInterval.Key] = fmt.Sprintf("%d ms", m.Freshness().Milliseconds())
	}
	if restorePath != "" {
		ov[config.StateRecoveryPath.Key] = restorePath
	}
	stmt := fmt.Sprintf("INSERT INTO %s\nSELECT * FROM (%s)", tableWithOptions(id, dynamic), m.ExpandedQuery)
	res, err := t.runRefresh(ctx, stmt, ov)
	if err != nil {
		return err
	}
	m.RefreshJobID = res.job.JobID()
	m.SavepointPath = ""
	m.RefreshStatus = catalog.RefreshActivated
	return t.storeMaterialized(id, tbl)
}

// refreshStatement is Flink's getRefreshStatement: INSERT OVERWRITE of the
// definition query, filtered to the partition spec.
func refreshStatement(id catalog.ObjectIdentifier, query string, spec map[string]string, dynamic map[string]string) string {
	stmt := fmt.Sprintf("INSERT OVERWRITE %s\n  SELECT * FROM (%s)", tableWithOptions(id, dynamic), query)
	if len(spec) > 0 {
		var conds []string
		for _, k := range sortedKeys(spec) {
			conds = append(conds, fmt.Sprintf("%s = '%s'", types.QuoteIdent(k), strings.ReplaceAll(spec[k], "'", "''")))
		}
		stmt += "\n  WHERE " + strings.Join(conds, " AND ")
	}
	return stmt
}

// validateRefreshPartitions is Flink's validatePartitionSpec: keys must be
// columns of the table of a character string type.
func validateRefreshPartitions(spec map[string]string, tbl *catalog.Table) error {
	var unknown, nonString []string
	for _, k := range sortedKeys(spec) {
		i := tbl.TableSchema.Index(k)
		if i < 0 {
			unknown = append(unknown, k)
			continue
		}
		if !tbl.TableSchema.Columns[i].Type.IsString() {
			nonString = append(nonString, k)
		}
	}
	if len(unknown) > 0 {
		return errorf("The partition spec contains unknown partition keys:\n\n%s\n\nAll known partition keys are:\n\n%s", strings.Join(unknown, "\n"), strings.Join(tbl.PartitionKeys, "\n"))
	}
	if len(nonString) > 0 {
		return errorf("Currently, refreshing materialized table only supports referring to char, varchar and string type partition keys. All specified partition keys in partition specs with unsupported types are:\n\n%s", strings.Join(nonString, "\n"))
	}
	return nil
}

// refreshOnce runs one batch refresh of a materialized table: the whole
// table or the partitions of spec overwritten with the definition query's
// rows. periodic names the job as the scheduler's.
func (t *TableEnvironment) refreshOnce(ctx context.Context, id catalog.ObjectIdentifier, tbl *catalog.Table, spec map[string]string, periodic bool) (*TableResult, error) {
	if err := validateRefreshPartitions(spec, tbl); err != nil {
		return nil, err
	}
	kind := "one_time"
	if periodic {
		kind = "periodic"
	}
	ov := map[string]string{
		config.RuntimeMode.Key:  "batch",
		config.PipelineName.Key: fmt.Sprintf("Materialized_table_%s_%s_refresh_job", id, kind),
	}
	if periodic {
		ov[config.DMLSync.Key] = "true"
	}
	res, err := t.runRefresh(ctx, refreshStatement(id, tbl.Materialized.ExpandedQuery, spec, nil), ov)
	if err != nil {
		return nil, fmt.Errorf("Refreshing the materialized table %s occur exception.\n%w", id, err)
	}
	return res, nil
}

// periodicPartitions is Flink's getPeriodRefreshPartition: for each option
// partition.fields.<col>.date-formatter, the partition value of the
// schedule time minus the freshness, formatted in the session time zone.
func periodicPartitions(id catalog.ObjectIdentifier, scheduled time.Time, tbl *catalog.Table, zone *time.Location) (map[string]string, error) {
	spec := map[string]string{}
	for k, pattern := range tbl.TableOptions {
		if !strings.HasPrefix(k, partitionFieldsPrefix) || !strings.HasSuffix(k, dateFormatterSuffix) {
			continue
		}
		col := strings.TrimSuffix(strings.TrimPrefix(k, partitionFieldsPrefix), dateFormatterSuffix)
		v, err := expr.FormatJavaDate(scheduled.Add(-tbl.Materialized.Freshness()).In(zone), pattern)
		if err != nil {
			return nil, errorf("Failed to parse a valid partition value for the field '%s' in materialized table %s using the date format '%s': %v", col, id, pattern, err)
		}
		spec[col] = v
	}
	return spec, nil
}

// startFullRefresher starts the in-process schedule of a FULL table: a
// batch refresh every freshness interval, the first one interval from
// now, until stopFullRefresher. A refresh that fails is logged in the
// table's job list (SHOW JOBS) and the schedule goes on.
func (t *TableEnvironment) startFullRefresher(id catalog.ObjectIdentifier, every time.Duration) {
	key := refresherKey{t, id}
	r := &fullRefresher{stop: make(chan struct{}), done: make(chan struct{})}
	if old, loaded := fullRefreshers.Swap(key, r); loaded {
		old.(*fullRefresher).halt()
	}
	go func() {
		defer close(r.done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-r.stop:
				return
			case now := <-tick.C:
				tbl, err := t.materializedOf(id)
				if err != nil || tbl.Materialized.RefreshStatus != catalog.RefreshActivated {
					continue
				}
				spec, err := periodicPartitions(id, now, tbl, t.resultZone())
				if err != nil {
					continue
				}
				if _, err := t.refreshOnce(context.Background(), id, tbl, spec, true); err == nil {
					if cur, err := t.materializedOf(id); err == nil {
						cur.Materialized.LastRefresh = time.Now()
						_ = t.storeMaterialized(id, cur)
					}
				}
			}
		}
	}()
}

func (r *fullRefresher) halt() {
	select {
	case <-r.stop:
	default:
		close(r.stop)
	}
	<-r.done
}

// stopFullRefresher ends a FULL table's schedule (and waits for a refresh
// in progress); it reports whether one was running in this environment.
func (t *TableEnvironment) stopFullRefresher(id catalog.ObjectIdentifier) bool {
	r, ok := fullRefreshers.LoadAndDelete(refresherKey{t, id})
	if ok {
		r.(*fullRefresher).halt()
	}
	return ok
}

// refreshJob is the running continuous refresh job of a table, if this
// environment knows it.
func (t *TableEnvironment) refreshJob(m *catalog.Materialized) (*JobClient, bool) {
	if m.RefreshJobID == "" {
		return nil, false
	}
	return t.JobByID(m.RefreshJobID)
}

// suspendContinuous stops a CONTINUOUS table's job with a savepoint
// (Flink requires a savepoint directory) and records SUSPENDED with the
// savepoint to resume from. A job that has already ended needs no
// savepoint.
func (t *TableEnvironment) suspendContinuous(ctx context.Context, id catalog.ObjectIdentifier, tbl *catalog.Table) error {
	m := tbl.Materialized
	if m.RefreshStatus == catalog.RefreshSuspended {
		return errorf("Materialized table %s continuous refresh job has been suspended, jobId is %s.", id, m.RefreshJobID)
	}
	fail := func(err error) error {
		return fmt.Errorf("Failed to suspend the continuous refresh job for materialized table %s.\n%w", id, err)
	}
	if _, err := t.savepointDir(); err != nil {
		return fail(errors.New("Savepoint directory is not configured, can't stop job with savepoint."))
	}
	path := ""
	if j, ok := t.refreshJob(m); ok && !j.Status().IsTerminal() {
		dir, _ := t.savepointDir()
		p, err := j.StopWithSavepointContext(ctx, dir)
		if err != nil {
			return fail(err)
		}
		// suspended means stopped: wait for the job's end, as Flink's stop
		select {
		case <-j.Done():
		case <-ctx.Done():
			return fail(ctx.Err())
		}
		path = p
	}
	m.SavepointPath = path
	m.RefreshStatus = catalog.RefreshSuspended
	return t.storeMaterialized(id, tbl)
}

func (x *execution) alterMaterializedTable(s *sql.AlterMaterializedTable) (*TableResult, error) {
	t := x.env
	id, err := x.qualify(s.Name)
	if err != nil {
		return nil, err
	}
	tbl, err := t.materializedOf(id)
	if err != nil {
		return nil, err
	}
	m := tbl.Materialized
	if m.RefreshStatus == catalog.RefreshInitializing && s.Op != "REFRESH" {
		return nil, errorf("Materialized table %s is being initialized and does not support %s operation.", id, strings.ToLower(s.Op))
	}
	switch s.Op {
	case "SUSPEND":
		if m.RefreshMode == catalog.RefreshContinuous {
			if err := t.suspendContinuous(x.ctx, id, tbl); err != nil {
				return nil, err
			}
			return okResult(), nil
		}
		if m.RefreshStatus == catalog.RefreshSuspended {
			return nil, errorf("Materialized table %s refresh workflow has been suspended.", id)
		}
		t.stopFullRefresher(id)
		m.RefreshStatus = catalog.RefreshSuspended
		if err := t.storeMaterialized(id, tbl); err != nil {
			return nil, err
		}
		return okResult(), nil
	case "RESUME":
		dynamic := props(s.Options)
		if m.RefreshMode == catalog.RefreshContinuous {
			if m.RefreshStatus == catalog.RefreshActivated {
				if j, ok := t.refreshJob(m); ok && !j.Status().IsTerminal() {
					return nil, errorf("Materialized table %s continuous refresh job has been resumed, jobId is %s.", id, m.RefreshJobID)
				}
			}
			if err := t.startContinuousRefresh(x.ctx, id, tbl, dynamic, m.SavepointPath); err != nil {
				return nil, fmt.Errorf("Failed to resume the continuous refresh job for materialized table %s.\n%w", id, err)
			}
			return okResult(), nil
		}
		if _, running := fullRefreshers.Load(refresherKey{t, id}); running && m.RefreshStatus == catalog.RefreshActivated {
			return nil, errorf("Materialized table %s refresh workflow has been resumed.", id)
		}
		m.RefreshStatus = catalog.RefreshActivated
		if err := t.storeMaterialized(id, tbl); err != nil {
			return nil, err
		}
		t.startFullRefresher(id, m.Freshness())
		return okResult(), nil
	case "REFRESH":
		spec := map[string]string{}
		for _, p := range s.Partition {
			spec[p.Key] = p.Value
		}
		res, err := t.refreshOnce(x.ctx, id, tbl, spec, false)
		if err != nil {
			return nil, err
		}
		if m.RefreshMode == catalog.RefreshFull {
			if res.job != nil {
				go func(j *JobClient) {
					if j.Wait(context.Background()) == nil {
						if cur, err := t.materializedOf(id); err == nil {
							cur.Materialized.LastRefresh = time.Now()
							_ = t.storeMaterialized(id, cur)
						}
					}
				}(res.job)
			}
		}
		// Flink returns the job's id and cluster information
		jobID := ""
		if res.job != nil {
			jobID = res.job.JobID()
		}
		out := &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"job id", "cluster info"},
			[]*types.DataType{types.StringType(), types.MapType(types.StringType(), types.StringType())}),
			static: []*types.Row{types.NewRow(jobID, &types.Map{Keys: []any{"execution.target"}, Values: []any{"local"}})}, job: res.job, message: res.message}
		return out, nil
	case "AS":
		return x.alterMaterializedQuery(id, tbl, s)
	}
	return nil, errorf("Unsupported operation %s for materialized table %s.", s.Op, id)
}

// alterMaterializedQuery is ALTER MATERIALIZED TABLE ... AS query: the new
// query may only add columns after the existing ones (Flink's rule); a
// CONTINUOUS table's job is suspended, the definition changed and a new
// job started without state, a FULL table's next refresh runs the new
// query.
func (x *execution) alterMaterializedQuery(id catalog.ObjectIdentifier, tbl *catalog.Table, s *sql.AlterMaterializedTable) (*TableResult, error) {
	t := x.env
	n, err := binder.BindQuery(t.bindContext(), s.Query, x.text, x.base)
	if err != nil {
		return nil, err
	}
	cols := n.Columns()
	old := tbl.TableSchema.Columns
	if len(cols) < len(old) {
		return nil, errorf("Failed to modify query because drop column is unsupported. When modifying a query, you can only append new columns at the end of original schema. The original schema has %d columns, but the newly derived schema from the query has %d columns.", len(old), len(cols))
	}
	for i, c := range old {
		nt := cols[i].Type.WithTimeAttr(types.NoTimeAttr)
		if cols[i].Name != c.Name || !nt.Equals(c.Type) {
			return nil, errorf("When modifying the query of a materialized table, currently only support appending columns at the end of original schema, dropping, renaming, and reordering columns are not supported.\nColumn mismatch at position %d: Original column is [%s %s], but new column is [%s %s].",
				i, types.QuoteIdent(c.Name), c.Type, types.QuoteIdent(cols[i].Name), nt)
		}
	}
	m := tbl.Materialized
	restart := m.RefreshMode == catalog.RefreshContinuous && m.RefreshStatus == catalog.RefreshActivated
	if restart {
		if err := t.suspendContinuous(x.ctx, id, tbl); err != nil {
			return nil, err
		}
		tbl, _ = t.materializedOf(id)
		m = tbl.Materialized
	}
	names := tbl.TableSchema.ColumnNames()
	var ts []*types.DataType
	for _, c := range tbl.TableSchema.Columns {
		ts = append(ts, c.Type)
	}
	for _, c := range cols[len(old):] {
		names = append(names, c.Name)
		ts = append(ts, c.Type.WithTimeAttr(types.NoTimeAttr).WithNullable(true))
	}
	pk := tbl.TableSchema.PrimaryKey
	tbl.TableSchema = types.NewPhysicalSchema(names, ts)
	tbl.TableSchema.PrimaryKey = pk
	m.DefinitionQuery = x.source(s.Query)
	m.ExpandedQuery = t.expandedViewQuery(m.DefinitionQuery, s.Query)
	// the new query starts without the old query's state
	m.SavepointPath = ""
	if err := t.storeMaterialized(id, tbl); err != nil {
		return nil, err
	}
	if restart {
		if err := t.startContinuousRefresh(x.ctx, id, tbl, nil, ""); err != nil {
			return nil, fmt.Errorf("Failed to start the continuous refresh job using new query %s when altering materialized table %s select query.\n%w", m.ExpandedQuery, id, err)
		}
	}
	return okResult(), nil
}

func (x *execution) dropMaterializedTable(d *sql.Drop) (*TableResult, error) {
	t := x.env
	id, err := x.qualify(d.Name)
	if err != nil {
		return nil, err
	}
	rt, ok, err := t.catalogs.GetTable(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		if d.IfExists {
			return okResult(), nil
		}
		return nil, errorf("Materialized table with identifier %s does not exist.", id)
	}
	tbl, ok := rt.Table.(*catalog.Table)
	if !ok || tbl.Materialized == nil {
		return nil, errorf("Table %s is not a materialized table, does not support materialized table related operation.", id)
	}
	m := tbl.Materialized
	if m.RefreshStatus == catalog.RefreshInitializing {
		return nil, errorf("Current refresh status of materialized table %s is initializing, skip the drop operation.", id)
	}
	if m.RefreshMode == catalog.RefreshFull {
		t.stopFullRefresher(id)
	} else if j, ok := t.refreshJob(m); ok && m.RefreshStatus == catalog.RefreshActivated && !j.Status().IsTerminal() {
		if err := j.Cancel(); err != nil && !j.Status().IsTerminal() {
			return nil, fmt.Errorf("Failed to drop the materialized table %s because the continuous refresh job %s could not be canceled. The current status of the continuous refresh job is %s.\n%w", id, m.RefreshJobID, j.Status(), err)
		}
	}
	c, err := t.catalogs.Catalog(id.Catalog)
	if err != nil {
		return nil, err
	}
	if err := c.DropTable(id.Path(), false); err != nil {
		return nil, err
	}
	return okResult(), nil
}

// ShowCreateMaterializedTable renders a materialized table's DDL as Flink
// 2.3.0's SHOW CREATE MATERIALIZED TABLE: the table part as SHOW CREATE
// TABLE writes it, then START_MODE, FRESHNESS, REFRESH_MODE and AS with
// the expanded query, ending in a newline.
func ShowCreateMaterializedTable(id catalog.ObjectIdentifier, tbl *catalog.Table) string {
	ddl := ShowCreateTable(id, tbl, false)
	ddl = "CREATE MATERIALIZED TABLE" + strings.TrimPrefix(ddl, "CREATE TABLE")
	m := tbl.Materialized
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(ddl, "\n"))
	b.WriteString("\nSTART_MODE = FROM_BEGINNING")
	fmt.Fprintf(&b, "\nFRESHNESS = %s", m.FreshnessSQL())
	fmt.Fprintf(&b, "\nREFRESH_MODE = %s", m.RefreshMode)
	fmt.Fprintf(&b, "\nAS %s\n", m.ExpandedQuery)
	return b.String()
}

// MaterializedTableInfo describes a materialized table for listings (the
// workbench's catalog panel): its freshness, refresh mode and status,
// the continuous job and the last successful FULL refresh.
type MaterializedTableInfo struct {
	Name          string
	Freshness     string
	RefreshMode   string
	RefreshStatus string
	RefreshJobID  string
	LastRefresh   time.Time
}

// MaterializedTables lists the materialized tables of a catalog's
// database, sorted by name.
func (t *TableEnvironment) MaterializedTables(catalogName, database string) ([]MaterializedTableInfo, error) {
	names, err := t.materializedNames(catalogName, database)
	if err != nil {
		return nil, err
	}
	var out []MaterializedTableInfo
	for _, n := range names {
		tbl, err := t.materializedOf(catalog.ObjectIdentifier{Catalog: catalogName, Database: database, Object: n})
		if err != nil {
			continue
		}
		m := tbl.Materialized
		out = append(out, MaterializedTableInfo{Name: n, Freshness: m.FreshnessSQL(), RefreshMode: m.RefreshMode,
			RefreshStatus: m.RefreshStatus, RefreshJobID: m.RefreshJobID, LastRefresh: m.LastRefresh})
	}
	return out, nil
}

// materializedNames lists the names of the materialized tables of a
// database, sorted.
func (t *TableEnvironment) materializedNames(catalogName, database string) ([]string, error) {
	k := catalog.KindTable
	names, err := t.catalogs.ListTables(catalogName, database, &k)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		rt, ok, err := t.catalogs.GetTable(catalog.ObjectIdentifier{Catalog: catalogName, Database: database, Object: n})
		if err != nil || !ok {
			continue
		}
		if tb, ok := rt.Table.(*catalog.Table); ok && tb.Materialized != nil && !rt.Temporary {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

// showMaterializedTables is SHOW MATERIALIZED TABLES [FROM|IN db] [[NOT]
// LIKE pattern]: the names in column "materialized table", as Flink 2.3.
func (x *execution) showMaterializedTables(s *sql.Show) (*TableResult, error) {
	t := x.env
	cat, db := t.CurrentCatalog(), t.CurrentDatabase()
	if s.From != nil {
		parts := identNames(s.From.Parts)
		db = parts[len(parts)-1]
		if len(parts) == 2 {
			cat = parts[0]
		}
	}
	names, err := t.materializedNames(cat, db)
	if err != nil {
		return nil, err
	}
	return listResult("materialized table", likeFilter(names, s.Like)), nil
}
