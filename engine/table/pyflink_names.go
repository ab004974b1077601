package table

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/common"
	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// This file is the compatibility layer of package table: PyFlink's names
// and Python-shaped signatures (get_* getters, calls without a context,
// planner switches that PyFlink keeps as no-ops), each a thin delegation
// to the Go-first method its doc comment names. See the package doc.

// GetEnvironment delegates to Environment.
func (t *Table) GetEnvironment() *TableEnvironment { return t.Environment() }

// GetSchema delegates to Schema (PyFlink's get_schema).
func (t *Table) GetSchema() *TableSchema { return t.Schema() }

// GetResolvedSchema delegates to ResolvedSchema.
func (t *Table) GetResolvedSchema() *types.Schema { return t.ResolvedSchema() }

// GetFieldNames delegates to FieldNames (PyFlink's get_field_names).
func (s *TableSchema) GetFieldNames() []string { return s.FieldNames() }

// GetFieldDataTypes delegates to FieldDataTypes (PyFlink's get_field_data_types).
func (s *TableSchema) GetFieldDataTypes() []*types.DataType { return s.FieldDataTypes() }

// GetFieldCount delegates to FieldCount (PyFlink's get_field_count).
func (s *TableSchema) GetFieldCount() int { return s.FieldCount() }

// GetFieldName delegates to FieldName (PyFlink's get_field_name).
func (s *TableSchema) GetFieldName(i int) (string, bool) { return s.FieldName(i) }

// GetFieldDataType delegates to FieldDataType (PyFlink's get_field_data_type).
func (s *TableSchema) GetFieldDataType(name string) (*types.DataType, bool) {
	return s.FieldDataType(name)
}

// GetFieldDataTypeAt delegates to FieldDataTypeAt (PyFlink's get_field_data_type).
func (s *TableSchema) GetFieldDataTypeAt(i int) (*types.DataType, bool) { return s.FieldDataTypeAt(i) }

// GetResultKind delegates to ResultKind (PyFlink's get_result_kind).
func (r *TableResult) GetResultKind() ResultKind { return r.ResultKind() }

// GetTableSchema delegates to Schema (PyFlink's get_table_schema).
func (r *TableResult) GetTableSchema() *TableSchema { return r.Schema() }

// GetJobClient delegates to JobClient (PyFlink's get_job_client).
func (r *TableResult) GetJobClient() *JobClient { return r.JobClient() }

// GetSchema delegates to Schema (PyFlink's get_schema).
func (d *TableDescriptor) GetSchema() *Schema { return d.Schema() }

// GetOptions delegates to Options (PyFlink's get_options).
func (d *TableDescriptor) GetOptions() map[string]string { return d.Options() }

// GetPartitionKeys delegates to PartitionKeys (PyFlink's get_partition_keys).
func (d *TableDescriptor) GetPartitionKeys() []string { return d.PartitionKeys() }

// GetComment delegates to Comment (PyFlink's get_comment).
func (d *TableDescriptor) GetComment() string { return d.Comment() }

// GetFormat delegates to Format (PyFlink's get_format).
func (d *FormatDescriptor) GetFormat() string { return d.Format() }

// GetOptions delegates to Options (PyFlink's get_options).
func (d *FormatDescriptor) GetOptions() map[string]string { return d.Options() }

// GetJobClient delegates to JobClient.
func (d *DataStream) GetJobClient() *JobClient { return d.JobClient() }

// GetSchema delegates to Schema.
func (d *DataStream) GetSchema() *types.Schema { return d.Schema() }

// GetMetricGroup delegates to MetricGroup (PyFlink's get_metric_group).
func (c *FunctionContext) GetMetricGroup() *MetricGroup { return c.MetricGroup() }

// GetJobParameter delegates to JobParameter.
func (c *FunctionContext) GetJobParameter(key, def string) string { return c.JobParameter(key, def) }

// GetBuiltinCatalogName delegates to BuiltinCatalogName (PyFlink's get_built_in_catalog_name).
func (s *EnvironmentSettings) GetBuiltinCatalogName() string { return s.BuiltinCatalogName() }

// GetBuiltinDatabaseName delegates to BuiltinDatabaseName (PyFlink's get_built_in_database_name).
func (s *EnvironmentSettings) GetBuiltinDatabaseName() string { return s.BuiltinDatabaseName() }

// GetFunctionDefinition delegates to FunctionDefinition.
func (x CoreModule) GetFunctionDefinition(name string) (*expr.Function, bool) {
	return x.FunctionDefinition(name)
}

// GetFunctionDefinition delegates to FunctionDefinition.
func (m *FunctionModule) GetFunctionDefinition(name string) (*expr.Function, bool) {
	return m.FunctionDefinition(name)
}

// GetConfiguration delegates to Configuration (PyFlink's get_configuration).
func (c *TableConfig) GetConfiguration() *config.Configuration { return c.Configuration() }

// GetExecutionConfig delegates to ExecutionConfig (PyFlink's get_config).
func (c *TableConfig) GetExecutionConfig() *common.ExecutionConfig { return c.ExecutionConfig() }

// GetLocalTimeZone delegates to LocalTimeZone (PyFlink's get_local_timezone).
func (c *TableConfig) GetLocalTimeZone() string { return c.LocalTimeZone() }

// GetIdleStateRetention delegates to IdleStateRetention (PyFlink's get_idle_state_retention).
func (c *TableConfig) GetIdleStateRetention() time.Duration { return c.IdleStateRetention() }

// GetSQLDialect delegates to SQLDialect (PyFlink's get_sql_dialect).
func (c *TableConfig) GetSQLDialect() SqlDialect { return c.SQLDialect() }

// SetIdleStateRetentionTime sets the idle state retention to minTime;
// maxTime is otherwise ignored and derived as 1.5 × minTime (PyFlink's
// set_idle_state_retention_time). As in Flink, maxTime must exceed
// minTime by at least 5 minutes unless both are 0 (never clean up);
// otherwise it returns an error and changes nothing.
//
// Deprecated: use SetIdleStateRetention.
func (c *TableConfig) SetIdleStateRetentionTime(minTime, maxTime time.Duration) error {
	if maxTime-minTime < 5*time.Minute && !(minTime == 0 && maxTime == 0) {
		return fmt.Errorf("Difference between minTime: %v and maxTime: %v should be at least 5 minutes.", minTime, maxTime)
	}
	c.SetIdleStateRetention(minTime)
	return nil
}

// GetMinIdleStateRetentionTime delegates to IdleStateRetention, in
// milliseconds (PyFlink's get_min_idle_state_retention_time).
//
// Deprecated: use IdleStateRetention.
func (c *TableConfig) GetMinIdleStateRetentionTime() int64 {
	return c.IdleStateRetention().Milliseconds()
}

// GetMaxIdleStateRetentionTime delegates to IdleStateRetention: 1.5 × the
// retention in milliseconds (PyFlink's get_max_idle_state_retention_time).
//
// Deprecated: use IdleStateRetention.
func (c *TableConfig) GetMaxIdleStateRetentionTime() int64 {
	return c.IdleStateRetention().Milliseconds() * 3 / 2
}

// GetMaxGeneratedCodeLength returns the threshold for splitting generated
// code (default 4000, as Flink's table.generated-code.max-length and PyFlink
// 2.3; the 1.14 docs said 64000) (PyFlink's get_max_generated_code_length).
// It has no Go-first name: Riffle generates no code, so the value is only
// stored, a no-op.
func (c *TableConfig) GetMaxGeneratedCodeLength() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.maxCodeLength
}

// SetMaxGeneratedCodeLength stores the value GetMaxGeneratedCodeLength
// returns; a no-op otherwise (PyFlink's set_max_generated_code_length).
func (c *TableConfig) SetMaxGeneratedCodeLength(n int) {
	c.mu.Lock()
	c.maxCodeLength = n
	c.mu.Unlock()
}

// GetNullCheck reports the recorded null-check setting (default true)
// (PyFlink's get_null_check). It has no Go-first name: Riffle always
// checks fields for NULL.
func (c *TableConfig) GetNullCheck() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nullCheck
}

// SetNullCheck records the setting GetNullCheck returns; a no-op
// otherwise, since Riffle always checks (PyFlink's set_null_check).
func (c *TableConfig) SetNullCheck(v bool) {
	c.mu.Lock()
	c.nullCheck = v
	c.mu.Unlock()
}

// GetPythonExecutable returns python.executable (PyFlink's
// get_python_executable). It has no Go-first name: Riffle runs no Python,
// so the value is only stored.
func (c *TableConfig) GetPythonExecutable() string { return c.conf.GetString("python.executable", "") }

// SetPythonExecutable stores python.executable (PyFlink's
// set_python_executable); a no-op otherwise, Riffle runs no Python.
func (c *TableConfig) SetPythonExecutable(path string) { c.conf.Set("python.executable", path) }

// IsBlinkPlanner reports true: Riffle has one planner (PyFlink's
// is_blink_planner).
//
// Deprecated: there is only one planner.
func (s *EnvironmentSettings) IsBlinkPlanner() bool { return true }

// UseBlinkPlanner does nothing: there is one planner (PyFlink's
// use_blink_planner).
//
// Deprecated: there is only one planner.
func (b *EnvironmentSettingsBuilder) UseBlinkPlanner() *EnvironmentSettingsBuilder { return b }

// UseAnyPlanner does nothing: there is one planner (PyFlink's
// use_any_planner).
//
// Deprecated: there is only one planner.
func (b *EnvironmentSettingsBuilder) UseAnyPlanner() *EnvironmentSettingsBuilder { return b }

// UseOldPlanner records an error, reported by Build, as PyFlink's
// use_old_planner throws: the old planner was removed in Flink 1.14.
//
// Deprecated: the old planner no longer exists.
func (b *EnvironmentSettingsBuilder) UseOldPlanner() *EnvironmentSettingsBuilder {
	b.err = errorf("The old planner has been removed in Flink 1.14. Please upgrade your table program to use the default planner (previously called the 'blink' planner).")
	return b
}

// GetDecimalContext delegates to DecimalContext, as precision and rounding
// mode name (PyFlink's get_decimal_context).
func (c *TableConfig) GetDecimalContext() (int, string) {
	d := c.DecimalContext()
	return d.Precision, string(d.RoundingMode)
}

// Execute delegates to ExecuteContext with context.Background() (PyFlink's
// execute).
func (t *Table) Execute() (*TableResult, error) { return t.ExecuteContext(context.Background()) }

// ExecuteInsert delegates to ExecuteInsertContext with
// context.Background() (PyFlink's execute_insert; overwrite=True is the
// option Overwrite()).
func (t *Table) ExecuteInsert(target any, opts ...InsertOption) (*TableResult, error) {
	return t.ExecuteInsertContext(context.Background(), target, opts...)
}

// Execute delegates to ExecuteContext with context.Background() (PyFlink's
// StatementSet.execute).
func (s *StatementSet) Execute() (*TableResult, error) {
	return s.ExecuteContext(context.Background())
}

// Wait delegates to WaitContext with a context that ends after timeout
// (PyFlink's wait; its timeout is in milliseconds, here a Duration, and
// zero or a negative one waits without limit). On timeout it returns
// context.DeadlineExceeded.
func (r *TableResult) Wait(timeout time.Duration) error {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return r.WaitContext(ctx)
}

// Collect delegates to CollectContext with context.Background() (PyFlink's
// collect).
func (r *TableResult) Collect() (*RowIterator, error) {
	return r.CollectContext(context.Background())
}

// Print delegates to PrintContext with context.Background() and
// os.Stdout (PyFlink's print).
func (r *TableResult) Print() error { return r.PrintContext(context.Background(), os.Stdout) }

// PrintTo delegates to PrintContext with context.Background().
func (r *TableResult) PrintTo(w io.Writer) error { return r.PrintContext(context.Background(), w) }

// ExecuteSQL delegates to ExecuteSQLContext with context.Background()
// (PyFlink's execute_sql).
func (t *TableEnvironment) ExecuteSQL(statement string) (*TableResult, error) {
	return t.ExecuteSQLContext(context.Background(), statement)
}

// Execute delegates to ExecuteContext with context.Background() (PyFlink's
// TableEnvironment.execute): it blocks until the job ends.
//
// Deprecated: use ExecuteSQL or a StatementSet.
func (t *TableEnvironment) Execute(jobName string) (*JobExecutionResult, error) {
	return t.ExecuteContext(context.Background(), jobName)
}

// ToDataStream delegates to ToDataStreamContext with
// context.Background() (PyFlink's to_data_stream): the stream runs until
// its job ends or Close.
func (t *TableEnvironment) ToDataStream(tab *Table) (*DataStream, error) {
	return t.ToDataStreamContext(context.Background(), tab)
}

// ToChangelogStream delegates to ToChangelogStreamContext with
// context.Background() (PyFlink's to_changelog_stream).
func (t *TableEnvironment) ToChangelogStream(tab *Table, target *Schema, mode ...types.ChangelogMode) (*DataStream, error) {
	return t.ToChangelogStreamContext(context.Background(), tab, target, mode...)
}

// ToAppendStream delegates to ToAppendStreamContext with
// context.Background() (PyFlink's to_append_stream).
func (t *TableEnvironment) ToAppendStream(tab *Table, typeInfo ...*common.TypeInformation) (*DataStream, error) {
	return t.ToAppendStreamContext(context.Background(), tab, typeInfo...)
}

// ToRetractStream delegates to ToRetractStreamContext with
// context.Background() (PyFlink's to_retract_stream).
func (t *TableEnvironment) ToRetractStream(tab *Table, typeInfo ...*common.TypeInformation) (<-chan RetractRecord, *DataStream, error) {
	return t.ToRetractStreamContext(context.Background(), tab, typeInfo...)
}

// GetConfig delegates to Config (PyFlink's get_config).
func (t *TableEnvironment) GetConfig() *TableConfig { return t.Config() }

// GetCurrentCatalog delegates to CurrentCatalog (PyFlink's
// get_current_catalog).
func (t *TableEnvironment) GetCurrentCatalog() string { return t.CurrentCatalog() }

// GetCurrentDatabase delegates to CurrentDatabase (PyFlink's
// get_current_database).
func (t *TableEnvironment) GetCurrentDatabase() string { return t.CurrentDatabase() }

// GetCatalog delegates to Catalog (PyFlink's get_catalog): a registered
// catalog, or nil when no catalog has that name.
func (t *TableEnvironment) GetCatalog(name string) catalog.Catalog { return t.Catalog(name) }

// StopWithSavepoint delegates to StopWithSavepointContext with a
// background context (PyFlink's stop_with_savepoint); advanceToEndOfEventTime
// is Drain.
func (c *JobClient) StopWithSavepoint(advanceToEndOfEventTime bool, savepointDirectory string) (string, error) {
	var opts []StopOption
	if advanceToEndOfEventTime {
		opts = append(opts, Drain())
	}
	return c.StopWithSavepointContext(context.Background(), savepointDirectory, opts...)
}

// TriggerSavepoint delegates to SavepointContext with a background context
// (PyFlink's trigger_savepoint).
func (c *JobClient) TriggerSavepoint(savepointDirectory string) (string, error) {
	return c.SavepointContext(context.Background(), savepointDirectory)
}

// GetJobID delegates to JobID (PyFlink's get_job_id).
func (c *JobClient) GetJobID() string { return c.JobID() }

// GetJobName delegates to JobName.
func (c *JobClient) GetJobName() string { return c.JobName() }

// GetJobStatus delegates to Status (PyFlink's get_job_status).
func (c *JobClient) GetJobStatus() JobStatus { return c.Status() }

// GetJobStatusAsync delegates to Status: the current state in a completed
// future (PyFlink's get_job_status future).
func (c *JobClient) GetJobStatusAsync() *common.CompletableFuture[common.JobStatus] {
	f := common.NewCompletableFuture[common.JobStatus](nil)
	f.Complete(c.Status())
	return f
}

// GetJobExecutionResult delegates to ExecutionResult (PyFlink's
// get_job_execution_result).
func (c *JobClient) GetJobExecutionResult(ctx context.Context) (*JobExecutionResult, error) {
	return c.ExecutionResult(ctx)
}

// GetJobExecutionResultAsync delegates to ExecutionResult as a future
// (PyFlink's get_job_execution_result future); cancelling the future
// cancels the job.
func (c *JobClient) GetJobExecutionResultAsync() *common.CompletableFuture[*JobExecutionResult] {
	cancel := func() {}
	if c != nil {
		cancel = c.job.Cancel
	}
	return common.Go(func() (*JobExecutionResult, error) { return c.ExecutionResult(context.Background()) }, cancel)
}

// GetAccumulators delegates to Accumulators (PyFlink's get_accumulators).
func (c *JobClient) GetAccumulators() map[string]any { return c.Accumulators() }
