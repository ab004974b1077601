import json, os, re
rows=json.load(open('/tmp/api/rows.json'))
# docs/API.md is maintained by hand after its first version: a row it
# already has keeps its Go, Compatibility name and Notes columns; the
# generator adds the rows it lacks and writes the table's four columns
# (PyFlink | Go | Compatibility name | Notes).
API_MD=os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','..','docs','API.md')
kept={}
if os.path.exists(API_MD):
    for line in open(API_MD):
        m=re.match(r'^\| *(\S+) *\|(.*)\|(.*)\|(.*)\|$',line.rstrip('\n'))
        if m and (m.group(1).startswith('pyflink.') or m.group(1).startswith('py:')):
            kept[m.group(1)]=tuple(c.strip() for c in m.group(2,3,4))
classfix={'pyflink.common.ConfigOptions':'config.Key','pyflink.common.Types':'common.TypeInformation','pyflink.common.RestartStrategies':'common.RestartStrategyConfiguration',
 'pyflink.common.Duration':'common.DurationOfSeconds','pyflink.table.DataTypes':'datatypes.Int','pyflink.table.window.Over':'table.OverPartitionBy, table.OverOrderBy'}
classnotes={'pyflink.common.Duration':'Go uses time.Duration; these constructors mirror PyFlink',
 'pyflink.table.DataTypes':'the datatypes package; NOT NULL via .NotNull()',
 'pyflink.table.Row':'engine/types.Row (shared with pyflink.common.Row)',
 'pyflink.common.JobClient':'table.JobClient: blocking methods with context, or Async futures',
 'pyflink.table.Expression':'properties are methods: col("a").sum is Col("a").Sum()',
 'pyflink.table.ChangelogMode':'types.ChangelogMode values',
 'pyflink.table.StreamTableEnvironment':'embeds TableEnvironment; bridge methods are on TableEnvironment'}
enum_rows=[
 ('pyflink.table.SqlDialect.DEFAULT','table.SqlDialectDefault',''),('pyflink.table.SqlDialect.HIVE','table.SqlDialectHive','settable; the Hive grammar is not supported'),
 ('pyflink.table.RowKind.INSERT','types.Insert','0'),('pyflink.table.RowKind.UPDATE_BEFORE','types.UpdateBefore','1'),('pyflink.table.RowKind.UPDATE_AFTER','types.UpdateAfter','2'),('pyflink.table.RowKind.DELETE','types.Delete','3'),
 ('pyflink.table.ExplainDetail.ESTIMATED_COST','table.EstimatedCost',''),('pyflink.table.ExplainDetail.CHANGELOG_MODE','table.ChangelogMode',''),('pyflink.table.ExplainDetail.JSON_EXECUTION_PLAN','table.JSONExecutionPlan',''),
 ('pyflink.table.ResultKind.SUCCESS','table.Success','0'),('pyflink.table.ResultKind.SUCCESS_WITH_CONTENT','table.SuccessWithContent','1'),
 ('pyflink.table.WriteMode.NO_OVERWRITE','table.WriteModeNoOverwrite','0'),('pyflink.table.WriteMode.OVERWRITE','table.WriteModeOverwrite','1'),
 ('pyflink.common.ExecutionMode.PIPELINED','common.ExecutionModePipelined','0'),('pyflink.common.ExecutionMode.PIPELINED_FORCED','common.ExecutionModePipelinedForced','1'),
 ('pyflink.common.ExecutionMode.BATCH','common.ExecutionModeBatch','2'),('pyflink.common.ExecutionMode.BATCH_FORCED','common.ExecutionModeBatchForced','3'),
 ('pyflink.common.InputDependencyConstraint.ANY','common.InputDependencyConstraintAny','0'),('pyflink.common.InputDependencyConstraint.ALL','common.InputDependencyConstraintAll','1'),
 ('pyflink.common.ExecutionConfig.PARALLELISM_DEFAULT','common.ParallelismDefault','-1'),('pyflink.common.ExecutionConfig.PARALLELISM_UNKNOWN','common.ParallelismUnknown','-2'),
]
for i,n in enumerate(['CREATED','RUNNING','FAILING','FAILED','CANCELLING','CANCELED','FINISHED','RESTARTING','SUSPENDED','RECONCILING']):
    go='common.Job'+n.capitalize()
    enum_rows.append(('pyflink.common.JobStatus.'+n,go,str(i)))
for (k,go,note) in [('pyflink.common.RowKind','types.RowKind','same type as pyflink.table.RowKind')]:
    pass
# implied (◇) types worth mapping
implied=[
 ('pyflink.table.AggregatedTable','table.AggregatedTable','implied by Table.aggregate'),('pyflink.table.AggregatedTable.select','table.AggregatedTable.Select',''),
 ('pyflink.table.FlatAggregateTable','table.FlatAggregateTable','implied by Table.flat_aggregate'),('pyflink.table.FlatAggregateTable.select','table.FlatAggregateTable.Select',''),
 ('pyflink.table.window.TumbleWithSize.on','table.TumbleWithSize.On',''),('pyflink.table.window.TumbleWithSizeOnTime.alias','table.TumbleWithSizeOnTime.Alias',''),
 ('pyflink.table.window.SlideWithSize.every','table.SlideWithSize.Every',''),('pyflink.table.window.SlideWithSizeAndSlide.on','table.SlideWithSizeAndSlide.On',''),
 ('pyflink.table.window.SlideWithSizeAndSlideOnTime.alias','table.SlideWithSizeAndSlideOnTime.Alias',''),
 ('pyflink.table.window.SessionWithGap.on','table.SessionWithGapSpec.On',''),('pyflink.table.window.SessionWithGapOnTime.alias','table.SessionWithGapOnTime.Alias',''),
 ('pyflink.table.window.OverWindowPartitioned.order_by','table.OverWindowPartitioned.OrderBy',''),
 ('pyflink.table.window.OverWindowPartitionedOrdered.preceding','table.OverWindowPartitionedOrdered.Preceding',''),
 ('pyflink.table.window.OverWindowPartitionedOrdered.alias','table.OverWindowPartitionedOrdered.Alias',''),
 ('pyflink.table.window.OverWindowPartitionedOrderedPreceding.following','table.OverWindowPartitionedOrderedPreceding.Following',''),
 ('pyflink.table.window.OverWindowPartitionedOrderedPreceding.alias','table.OverWindowPartitionedOrderedPreceding.Alias',''),
 ('pyflink.table.expression.TimeIntervalUnit','table.TimeIntervalUnit',''),('pyflink.table.expression.TimePointUnit','table.TimePointUnit',''),
 ('pyflink.table.expression.JsonExistsOnError','table.JSONExistsOnError',''),('pyflink.table.expression.JsonValueOnEmptyOrError','table.JSONValueOnEmptyOrError',''),
 ('pyflink.table.udf.UserDefinedFunctionWrapper','table.UserDefinedFunction','udf/udtf/udaf/udtaf results'),
 ('pyflink.table.udf.udf','table.UDF',''),('pyflink.table.udf.udtf','table.UDTF',''),('pyflink.table.udf.udaf','table.UDAF',''),('pyflink.table.udf.udtaf','table.UDTAF',''),
 ('pyflink.table.udf.UserDefinedFunction.open','table.OpenableFunction.Open',''),('pyflink.table.udf.UserDefinedFunction.close','table.ClosableFunction.Close',''),
 ('pyflink.table.udf.UserDefinedFunction.is_deterministic','table.DeterministicFunction.IsDeterministic',''),
 ('pyflink.table.FunctionContext.get_job_parameter','table.FunctionContext.GetJobParameter',''),
 ('pyflink.table.udf.ImperativeAggregateFunction.create_accumulator','table.AggregateFunction.CreateAccumulator',''),
 ('pyflink.table.udf.ImperativeAggregateFunction.accumulate','table.AggregateFunction.Accumulate',''),
 ('pyflink.table.udf.ImperativeAggregateFunction.retract','table.RetractableFunction.Retract',''),
 ('pyflink.table.udf.ImperativeAggregateFunction.merge','table.MergeableFunction.Merge',''),
 ('pyflink.table.udf.ImperativeAggregateFunction.reset_accumulator','table.ResettableFunction.ResetAccumulator',''),
 ('pyflink.table.udf.ImperativeAggregateFunction.get_result_type','table.ResultTypedFunction.GetResultType',''),
 ('pyflink.table.udf.ImperativeAggregateFunction.get_accumulator_type','table.AccumulatorTypedFunction.GetAccumulatorType',''),
 ('pyflink.table.CloseableIterator','table.RowIterator','TableResult.collect()'),('pyflink.table.CloseableIterator.close','table.RowIterator.Close',''),
 ('pyflink.metrics.MetricGroup','table.MetricGroup','FunctionContext.get_metric_group'),
 ('pyflink.common.TimestampAssigner','common.TimestampAssigner',''),
 ('pyflink.datastream.DataStream','table.DataStream','the bridge\'s stream of Rows'),
]
out=[]
out.append('# PyFlink Table API to Go: the mapping\n')
out.append('This table maps every class, method, property, module function and constant of the seed inventory ')
out.append('(`pyflink.table` and `pyflink.common`, Flink 1.14) to its Go counterpart in Riffle, or says why there is none. ')
out.append('`engine/table/apimap_test.go` parses this file and checks that every Go identifier exists, so the table and the code stay in step.\n\n')
out.append('Go packages: `table` = engine/table, `datatypes` = engine/table/datatypes, `descriptors` = engine/table/descriptors, ')
out.append('`common` = engine/common, `config` = engine/config, `catalog` = engine/catalog, `types` = engine/types.\n\n')
out.append('Naming: Go names follow Go style (`execute_sql` is `ExecuteSQL`, `from_elements` is `FromElements`); PyFlink properties are methods (`col("a").sum` is `Col("a").Sum()`); methods that PyFlink overloads on argument types have one Go method per form. Table operations return a `*Table` that carries any error (see `Table.Err`); environment methods return errors.\n\n')
out.append('Two layers (see the package docs of `engine/table` and `engine/common`): the **Go** column is the Go-first API: no `Get` prefixes, a `context.Context` first on everything that runs or waits, functional options for Python\'s keyword arguments (`overwrite=True` is `table.Overwrite()`), `iter.Seq2` for streamed rows. Where PyFlink\'s name is kept with its Python-shaped signature, the Go-first method is that name plus `Context`, as database/sql\'s `Exec`/`ExecContext` (`Table.ExecuteContext` and `Table.Execute`). The **Compatibility name** column is the PyFlink-shaped name that delegates to it (in `engine/table/pyflink_names.go` and `engine/common/pyflink_names.go`); "same" means one name serves both; "none (no-op)" marks a switch PyFlink keeps that does nothing here, which exists only in the compatibility layer.\n\n')
seed=len(rows)+len(enum_rows)
out.append(f'<!-- seed members: {seed} -->\n')
n_na=sum(1 for r in rows if r[1]=='n/a')
out.append(f'Coverage: {seed} seed entries ({len(rows)} classes and members, {len(enum_rows)} enumeration values and constants), ')
out.append(f'{seed-n_na} implemented, {n_na} not applicable with a reason: 100 %.\n\n')
cur=None
def fmt_go(go):
    if go=='n/a': return 'n/a'
    return ', '.join('`'+g.strip()+'`' for g in go.split(','))
def row(key, go, note):
    """One table row: the hand-maintained one when API.md has it, else
    the generated Go name, which serves both layers ("same")."""
    if key in kept:
        g, c, n = kept[key]
        return f'| {key} | {g} | {c} | {n} |\n'
    g=fmt_go(go)
    return f'| {key} | {g} | {"n/a" if g=="n/a" else "same"} | {note} |\n'
for key,go,note,l,k in rows:
    if k=='class':
        cur=key
        out.append(f'\n## {key}\n\n| PyFlink | Go | Compatibility name | Notes |\n|---|---|---|---|\n')
        go=classfix.get(key,go)
        note=note or classnotes.get(key,'')
    if go=='?':
        go='TODO'
    kind={'property':' (property)','function':' (function)','constant':' (constant)'}.get(k,'')
    out.append(row(key, go, note+("" if not kind or note else kind.strip(" ()"))))
out.append('\n## Enumeration values and constants\n\n| PyFlink | Go | Compatibility name | Notes |\n|---|---|---|---|\n')
for key,go,note in enum_rows:
    out.append(row(key, go, note))
out.append('\n## Types implied by the seeds (not counted above)\n\n| Python | Go | Compatibility name | Notes |\n|---|---|---|---|\n')
for key,go,note in implied:
    out.append(row(key.replace("pyflink.","py:",1), go, note))
open(API_MD,'w').write(''.join(out))
print(seed, n_na)
