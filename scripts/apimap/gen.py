import json, re
m=json.load(open('/tmp/api/members3.json'))

def camel(s):
    return ''.join(p[:1].upper()+p[1:] for p in s.strip('_').split('_'))

NA_PY='n/a'
# class -> (go type ref prefix or None, default note)
cls_map={
 'pyflink.table.TableEnvironment':'table.TableEnvironment',
 'pyflink.table.StreamTableEnvironment':'table.TableEnvironment',
 'pyflink.table.Table':'table.Table',
 'pyflink.table.StatementSet':'table.StatementSet',
 'pyflink.table.EnvironmentSettings':'table.EnvironmentSettings',
 'pyflink.table.EnvironmentSettings.Builder':'table.EnvironmentSettingsBuilder',
 'pyflink.table.TableConfig':'table.TableConfig',
 'pyflink.table.GroupedTable':'table.GroupedTable',
 'pyflink.table.GroupWindowedTable':'table.GroupWindowedTable',
 'pyflink.table.OverWindowedTable':'table.OverWindowedTable',
 'pyflink.table.WindowGroupedTable':'table.WindowGroupedTable',
 'pyflink.table.ScalarFunction':'table.ScalarFunction',
 'pyflink.table.TableFunction':'table.TableFunction',
 'pyflink.table.AggregateFunction':'table.AggregateFunction',
 'pyflink.table.TableAggregateFunction':'table.TableAggregateFunction',
 'pyflink.table.FunctionContext':'table.FunctionContext',
 'pyflink.table.DataView':'table.DataView',
 'pyflink.table.ListView':'table.ListView',
 'pyflink.table.MapView':'table.MapView',
 'pyflink.table.TableDescriptor':'table.TableDescriptor',
 'pyflink.table.TableDescriptor.Builder':'table.TableDescriptorBuilder',
 'pyflink.table.FormatDescriptor':'table.FormatDescriptor',
 'pyflink.table.FormatDescriptor.Builder':'table.FormatDescriptorBuilder',
 'pyflink.table.Schema':'catalog.Schema',
 'pyflink.table.Schema.Builder':'catalog.SchemaBuilder',
 'pyflink.table.Module':'table.Module',
 'pyflink.table.ModuleEntry':'table.ModuleEntry',
 'pyflink.table.module.ModuleEntry':'table.ModuleEntry',
 'pyflink.table.SqlDialect':'table.SqlDialect',
 'pyflink.table.DataTypes':'datatypes',
 'pyflink.table.Expression':'table.Expression',
 'pyflink.table.TableSchema':'table.TableSchema',
 'pyflink.table.TableSchema.Builder':'table.TableSchemaBuilder',
 'pyflink.table.TableResult':'table.TableResult',
 'pyflink.table.Row':'types.Row',
 'pyflink.common.Row':'types.Row',
 'pyflink.table.RowKind':'types.RowKind',
 'pyflink.common.RowKind':'types.RowKind',
 'pyflink.table.ChangelogMode':'types.ChangelogMode',
 'pyflink.table.ExplainDetail':'table.ExplainDetail',
 'pyflink.table.TableSource':'table.TableSource',
 'pyflink.table.TableSink':'table.TableSink',
 'pyflink.table.CsvTableSource':'table.CsvTableSource',
 'pyflink.table.CsvTableSink':'table.CsvTableSink',
 'pyflink.table.WriteMode':'table.WriteMode',
 'pyflink.table.ResultKind':'table.ResultKind',
 'pyflink.table.window.Tumble':'table.TumbleOver',
 'pyflink.table.window.Session':'table.SessionWithGap',
 'pyflink.table.window.Slide':'table.SlideOver',
 'pyflink.table.window.Over':'table.OverWindow',
 'pyflink.table.window.GroupWindow':'table.GroupWindow',
 'pyflink.table.window.OverWindow':'table.OverWindow',
 'pyflink.table.descriptors.Rowtime':'descriptors.Rowtime',
 'pyflink.table.descriptors.Schema':'descriptors.Schema',
 'pyflink.table.catalog.Catalog':'catalog.Catalog',
 'pyflink.table.catalog.CatalogDatabase':'catalog.Database',
 'pyflink.table.catalog.CatalogBaseTable':'catalog.BaseTable',
 'pyflink.table.catalog.CatalogPartition':'catalog.Partition',
 'pyflink.table.catalog.CatalogFunction':'catalog.Function',
 'pyflink.table.catalog.ObjectPath':'catalog.ObjectPath',
 'pyflink.table.catalog.CatalogPartitionSpec':'catalog.PartitionSpec',
 'pyflink.table.catalog.CatalogTableStatistics':'catalog.TableStatistics',
 'pyflink.table.catalog.CatalogColumnStatistics':'catalog.ColumnStatistics',
 'pyflink.common.Configuration':'config.Configuration',
 'pyflink.common.ConfigOption':'config.ConfigOption',
 'pyflink.common.ConfigOptions':'config',
 'pyflink.common.ConfigOptions.OptionBuilder':'config.OptionBuilder',
 'pyflink.common.ConfigOptions.TypedConfigOptionBuilder':'config.TypedConfigOptionBuilder',
 'pyflink.common.ExecutionConfig':'common.ExecutionConfig',
 'pyflink.common.TypeInformation':'common.TypeInformation',
 'pyflink.common.Types':'common',
 'pyflink.common.SerializationSchema':'common.SerializationSchema',
 'pyflink.common.DeserializationSchema':'common.DeserializationSchema',
 'pyflink.common.SimpleStringSchema':'common.SimpleStringSchema',
 'pyflink.common.JsonRowSerializationSchema':'common.JsonRowSerializationSchema',
 'pyflink.common.JsonRowSerializationSchema.Builder':'common.JsonRowSerializationSchemaBuilder',
 'pyflink.common.JsonRowDeserializationSchema':'common.JsonRowDeserializationSchema',
 'pyflink.common.JsonRowDeserializationSchema.Builder':'common.JsonRowDeserializationSchemaBuilder',
 'pyflink.common.CsvRowSerializationSchema':'common.CsvRowSerializationSchema',
 'pyflink.common.CsvRowSerializationSchema.Builder':'common.CsvRowSerializationSchemaBuilder',
 'pyflink.common.CsvRowDeserializationSchema':'common.CsvRowDeserializationSchema',
 'pyflink.common.CsvRowDeserializationSchema.Builder':'common.CsvRowDeserializationSchemaBuilder',
 'pyflink.common.Encoder':'common.Encoder',
 'pyflink.common.CompletableFuture':'common.CompletableFuture',
 'pyflink.common.ExecutionMode':'common.ExecutionMode',
 'pyflink.common.InputDependencyConstraint':'common.InputDependencyConstraint',
 'pyflink.common.JobClient':'table.JobClient',
 'pyflink.common.JobExecutionResult':'common.JobExecutionResult',
 'pyflink.common.JobID':'common.JobID',
 'pyflink.common.JobStatus':'common.JobStatus',
 'pyflink.common.RestartStrategies':'common',
 'pyflink.common.RestartStrategies.FailureRateRestartStrategyConfiguration':'common.FailureRateRestartStrategyConfiguration',
 'pyflink.common.RestartStrategies.FallbackRestartStrategyConfiguration':'common.FallbackRestartStrategyConfiguration',
 'pyflink.common.RestartStrategies.FixedDelayRestartStrategyConfiguration':'common.FixedDelayRestartStrategyConfiguration',
 'pyflink.common.RestartStrategies.NoRestartStrategyConfiguration':'common.NoRestartStrategyConfiguration',
 'pyflink.common.RestartStrategyConfiguration':'common.RestartStrategyConfiguration',
 'pyflink.common.WatermarkStrategy':'common.WatermarkStrategy',
 'pyflink.common.Duration':'common',
 'pyflink.common.Instant':'common.Instant',
 'pyflink.common.Time':'common.Time',
 'pyflink.table.expressions':'table',
 'pyflink.table.module.Module':'table.Module',
}
NA = {}
def na(key, reason): NA[key]=reason
PY_DEP="Python dependency management: Riffle runs Go functions in-process, there is no Python worker to ship files to"
na('pyflink.table.TableEnvironment.add_python_archive', PY_DEP)
na('pyflink.table.TableEnvironment.add_python_file', PY_DEP)
na('pyflink.table.TableEnvironment.set_python_requirements', PY_DEP)
na('pyflink.table.TableEnvironment.from_pandas', "pandas is Python-only; the Go counterpart is `table.TableEnvironment.FromArrow` (Arrow records)")
na('pyflink.table.Table.to_pandas', "pandas is Python-only; the Go counterpart is `table.Table.ToArrow`")
na('pyflink.table.UserDefinedType', "Python user-defined types (pickled Python objects) have no Go counterpart: Go values map to SQL types directly (see Lit and typeOfGo)")
for mm in ['deserialize','from_sql_type','java_udt','module','need_conversion','serialize','sql_type','to_sql_type','type_name']:
    na('pyflink.table.UserDefinedType.'+mm, "UserDefinedType is Flink-internal Python machinery for Python objects; Go values need no such conversion")
na('pyflink.common.Types.PICKLED_BYTE_ARRAY', "pickle is Python-only")
na('pyflink.common.TypeInformation.get_java_type_info', "there is no JVM: the Go type information is its logical data type, `common.TypeInformation.DataType`")
na('pyflink.common.TypeSerializer', "Python-side serializers of the Python worker; Go values are passed in-process")
na('pyflink.common.TypeSerializer.serialize', "Python-side serializer; Go values are passed in-process")
na('pyflink.common.TypeSerializer.deserialize', "Python-side serializer; Go values are passed in-process")
na('pyflink.common.AvroRowSerializationSchema', "no Avro library among Riffle's dependencies; use the JSON or CSV schemas")
na('pyflink.common.AvroRowDeserializationSchema', "no Avro library among Riffle's dependencies; use the JSON or CSV schemas")
na('pyflink.table.catalog.HiveCatalog', "no Hive metastore client in Riffle; register a Go `catalog.Catalog` implementation instead")
na('pyflink.table.module.HiveModule', "no Hive built-in functions in Riffle; load Go functions with `table.NewFunctionModule`")
na('pyflink.table.TableConfig.get_python_executable', None)
del NA['pyflink.table.TableConfig.get_python_executable']

over = {
 # TableEnvironment
 'pyflink.table.TableEnvironment.create':'table.Create',
 'pyflink.table.TableEnvironment.create_java_function':'table.TableEnvironment.CreateFunction',
 'pyflink.table.TableEnvironment.create_java_temporary_function':'table.TableEnvironment.CreateTemporaryFunctionFromIdentifier',
 'pyflink.table.TableEnvironment.create_java_temporary_system_function':'table.TableEnvironment.CreateTemporarySystemFunctionFromIdentifier',
 'pyflink.table.TableEnvironment.create_temporary_view':'table.TableEnvironment.CreateTemporaryView, table.TableEnvironment.CreateTemporaryViewFromDataStream',
 'pyflink.table.TableEnvironment.execute_sql':'table.TableEnvironment.ExecuteSQL',
 'pyflink.table.TableEnvironment.explain_sql':'table.TableEnvironment.ExplainSQL',
 'pyflink.table.TableEnvironment.from_elements':'table.TableEnvironment.FromElements, table.TableEnvironment.FromElementsWithType',
 'pyflink.table.TableEnvironment.sql_query':'table.TableEnvironment.SQLQuery',
 'pyflink.table.TableEnvironment.sql_update':'table.TableEnvironment.SQLUpdate',
 'pyflink.table.TableEnvironment.register_java_function':'table.TableEnvironment.RegisterJavaFunction',
 'pyflink.table.StreamTableEnvironment.create':'table.CreateStreamTableEnvironment',
 'pyflink.table.StreamTableEnvironment.from_data_stream':'table.TableEnvironment.FromDataStream, table.TableEnvironment.FromDataStreamWithFields',
 # Table
 'pyflink.table.Table.over_window':'table.Table.OverWindow',
 # EnvironmentSettings
 'pyflink.table.EnvironmentSettings.from_configuration':'table.EnvironmentSettingsFromConfiguration',
 'pyflink.table.EnvironmentSettings.get_built_in_catalog_name':'table.EnvironmentSettings.GetBuiltinCatalogName',
 'pyflink.table.EnvironmentSettings.get_built_in_database_name':'table.EnvironmentSettings.GetBuiltinDatabaseName',
 'pyflink.table.EnvironmentSettings.in_batch_mode':'table.InBatchMode',
 'pyflink.table.EnvironmentSettings.in_streaming_mode':'table.InStreamingMode',
 'pyflink.table.EnvironmentSettings.new_instance':'table.NewEnvironmentSettingsBuilder',
 # TableConfig
 'pyflink.table.TableConfig.get_default':'table.DefaultTableConfig',
 'pyflink.table.TableConfig.get_local_timezone':'table.TableConfig.GetLocalTimeZone',
 'pyflink.table.TableConfig.set_local_timezone':'table.TableConfig.SetLocalTimeZone',
 'pyflink.table.TableConfig.get_sql_dialect':'table.TableConfig.GetSQLDialect',
 'pyflink.table.TableConfig.set_sql_dialect':'table.TableConfig.SetSQLDialect',
 # UDF
 'pyflink.table.ScalarFunction.eval':'table.ScalarFunction.Eval, table.UDF',
 'pyflink.table.TableFunction.eval':'table.TableFunction.Eval, table.UDTF',
 'pyflink.table.AggregateFunction.get_value':'table.AggregateFunction.GetValue, table.UDAF',
 'pyflink.table.TableAggregateFunction.emit_value':'table.TableAggregateFunction.EmitValue, table.UDTAF',
 # descriptors
 'pyflink.table.TableDescriptor.for_connector':'table.ForConnector',
 'pyflink.table.FormatDescriptor.for_format':'table.ForFormat',
 'pyflink.table.Schema.new_builder':'table.NewSchemaBuilder, catalog.NewSchemaBuilder',
 'pyflink.table.TableSchema.builder':'table.NewTableSchemaBuilder',
 'pyflink.table.TableSchema.get_field_data_type':'table.TableSchema.GetFieldDataType, table.TableSchema.GetFieldDataTypeAt',
 # TableResult
 'pyflink.table.TableResult.print':'table.TableResult.Print, table.TableResult.PrintTo',
 # Row
 'pyflink.table.Row.as_dict':'types.Row.AsDict, types.Row.AsDictRecursive',
 'pyflink.common.Row.as_dict':'types.Row.AsDict, types.Row.AsDictRecursive',
 'pyflink.table.Row.of_kind':'types.RowOfKind',
 'pyflink.common.Row.of_kind':'types.RowOfKind',
 # ChangelogMode
 'pyflink.table.ChangelogMode.all':'table.ChangelogModeAll',
 'pyflink.table.ChangelogMode.insert_only':'table.ChangelogModeInsertOnly',
 'pyflink.table.ChangelogMode.upsert':'table.ChangelogModeUpsert',
 # windows
 'pyflink.table.window.Tumble.over':'table.TumbleOver',
 'pyflink.table.window.Slide.over':'table.SlideOver',
 'pyflink.table.window.Session.with_gap':'table.SessionWithGap',
 'pyflink.table.window.Over.partition_by':'table.OverPartitionBy',
 'pyflink.table.window.Over.order_by':'table.OverOrderBy',
 # catalog
 'pyflink.table.catalog.Catalog.get_default_database':'catalog.Catalog.DefaultDatabase',
 'pyflink.table.catalog.CatalogDatabase.create_instance':'catalog.NewCatalogDatabase',
 'pyflink.table.catalog.CatalogDatabase.copy':'catalog.Database.Copy',
 'pyflink.table.catalog.CatalogBaseTable.create_table':'catalog.NewCatalogTable',
 'pyflink.table.catalog.CatalogBaseTable.create_view':'catalog.NewCatalogView',
 'pyflink.table.catalog.CatalogBaseTable.copy':'catalog.BaseTable.Copy',
 'pyflink.table.catalog.CatalogBaseTable.get_comment':'catalog.BaseTable.Comment',
 'pyflink.table.catalog.CatalogBaseTable.get_options':'catalog.BaseTable.Options',
 'pyflink.table.catalog.CatalogBaseTable.get_schema':'catalog.BaseTable.Schema',
 'pyflink.table.catalog.CatalogBaseTable.get_description':'catalog.Table.GetDescription, catalog.View.GetDescription',
 'pyflink.table.catalog.CatalogBaseTable.get_detailed_description':'catalog.Table.GetDetailedDescription, catalog.View.GetDetailedDescription',
 'pyflink.table.catalog.CatalogBaseTable.get_unresolved_schema':'catalog.Table.GetUnresolvedSchema, catalog.View.GetUnresolvedSchema',
 'pyflink.table.catalog.CatalogPartition.create_instance':'catalog.NewCatalogPartition',
 'pyflink.table.catalog.CatalogFunction.create_instance':'catalog.NewCatalogFunction',
 'pyflink.table.catalog.ObjectPath.from_string':'catalog.ParseObjectPath',
 'pyflink.table.catalog.CatalogTableStatistics.copy':'catalog.TableStatistics.Copy',
 # config
 'pyflink.common.Configuration.add_all':'config.Configuration.AddAll, config.Configuration.AddAllWithPrefix',
 'pyflink.common.Configuration.key_set':'config.Configuration.KeySet',
 'pyflink.common.ConfigOptions.key':'config.Key',
 # ExecutionConfig
 'pyflink.common.ExecutionConfig.enable_auto_generated_uids':'common.ExecutionConfig.EnableAutoGeneratedUIDs',
 'pyflink.common.ExecutionConfig.disable_auto_generated_uids':'common.ExecutionConfig.DisableAutoGeneratedUIDs',
 'pyflink.common.ExecutionConfig.has_auto_generated_uids_enabled':'common.ExecutionConfig.HasAutoGeneratedUIDsEnabled',
 # Types
 'pyflink.common.Types.BASIC_ARRAY':'common.TypeBasicArray','pyflink.common.Types.BIG_DEC':'common.TypeBigDec','pyflink.common.Types.BIG_INT':'common.TypeBigInt',
 'pyflink.common.Types.BOOLEAN':'common.TypeBoolean','pyflink.common.Types.BYTE':'common.TypeByte','pyflink.common.Types.CHAR':'common.TypeChar',
 'pyflink.common.Types.DOUBLE':'common.TypeDouble','pyflink.common.Types.FLOAT':'common.TypeFloat','pyflink.common.Types.INSTANT':'common.TypeInstant',
 'pyflink.common.Types.INT':'common.TypeInt','pyflink.common.Types.LIST':'common.TypeList','pyflink.common.Types.LONG':'common.TypeLong',
 'pyflink.common.Types.MAP':'common.TypeMap','pyflink.common.Types.OBJECT_ARRAY':'common.TypeObjectArray','pyflink.common.Types.PRIMITIVE_ARRAY':'common.TypePrimitiveArray',
 'pyflink.common.Types.ROW':'common.TypeRow','pyflink.common.Types.ROW_NAMED':'common.TypeRowNamed','pyflink.common.Types.SHORT':'common.TypeShort',
 'pyflink.common.Types.SQL_DATE':'common.TypeSQLDate','pyflink.common.Types.SQL_TIME':'common.TypeSQLTime','pyflink.common.Types.SQL_TIMESTAMP':'common.TypeSQLTimestamp',
 'pyflink.common.Types.STRING':'common.TypeString','pyflink.common.Types.TUPLE':'common.TypeTuple',
 'pyflink.common.JsonRowSerializationSchema.builder':'common.NewJsonRowSerializationSchemaBuilder',
 'pyflink.common.JsonRowDeserializationSchema.builder':'common.NewJsonRowDeserializationSchemaBuilder',
 'pyflink.common.JsonRowDeserializationSchema.Builder.json_schema':'common.JsonRowDeserializationSchemaBuilder.JSONSchema',
 'pyflink.common.Encoder.simple_string_encoder':'common.SimpleStringEncoder',
 'pyflink.common.JobStatus.is_globally_terminal_state':'common.JobStatus.IsGloballyTerminalState',
 'pyflink.common.JobStatus.is_terminal_state':'common.JobStatus.IsTerminalState',
 'pyflink.common.JobClient.get_job_status':'table.JobClient.GetJobStatus, table.JobClient.GetJobStatusAsync',
 'pyflink.common.JobClient.get_job_execution_result':'table.JobClient.GetJobExecutionResult, table.JobClient.GetJobExecutionResultAsync',
 'pyflink.common.RestartStrategies.failure_rate_restart':'common.RestartStrategiesFailureRateRestart',
 'pyflink.common.RestartStrategies.fall_back_restart':'common.RestartStrategiesFallBackRestart',
 'pyflink.common.RestartStrategies.fixed_delay_restart':'common.RestartStrategiesFixedDelayRestart',
 'pyflink.common.RestartStrategies.no_restart':'common.RestartStrategiesNoRestart',
 'pyflink.common.WatermarkStrategy.for_bounded_out_of_orderness':'common.ForBoundedOutOfOrderness',
 'pyflink.common.WatermarkStrategy.for_monotonous_timestamps':'common.ForMonotonousTimestamps',
 'pyflink.common.Instant.of_epoch_milli':'common.InstantOfEpochMilli',
 'pyflink.common.Time.days':'common.TimeDays','pyflink.common.Time.hours':'common.TimeHours','pyflink.common.Time.milliseconds':'common.TimeMilliseconds',
 'pyflink.common.Time.minutes':'common.TimeMinutes','pyflink.common.Time.seconds':'common.TimeSeconds',
 'pyflink.common.CompletableFuture.cancel':'common.CompletableFuture.Cancel',
 'pyflink.table.descriptors.Schema.fields':'descriptors.Schema.Fields',
 'pyflink.table.StatementSet.add_insert_sql':'table.StatementSet.AddInsertSQL',
 'pyflink.common.JobClient.get_job_id':'table.JobClient.GetJobID',
 'pyflink.common.JobExecutionResult.get_job_id':'common.JobExecutionResult.GetJobID',
}
# DataTypes
dt={'ARRAY':'Array','BIGINT':'BigInt','BINARY':'Binary','BOOLEAN':'Boolean','BYTES':'Bytes','CHAR':'Char','DATE':'Date','DAY':'Day','DECIMAL':'Decimal',
 'DOUBLE':'Double','FIELD':'Field','FLOAT':'Float','HOUR':'Hour','INT':'Int','INTERVAL':'Interval','LIST_VIEW':'ListView','MAP':'Map','MAP_VIEW':'MapView',
 'MINUTE':'Minute','MONTH':'Month','MULTISET':'Multiset','NULL':'Null','ROW':'Row','SECOND':'Second','SMALLINT':'SmallInt','STRING':'String','TIME':'Time',
 'TIMESTAMP':'Timestamp','TIMESTAMP_LTZ':'TimestampLTZ','TIMESTAMP_WITH_LOCAL_TIME_ZONE':'TimestampWithLocalTimeZone','TINYINT':'TinyInt','VARBINARY':'VarBinary','VARCHAR':'VarChar','YEAR':'Year'}
for k,v in dt.items(): over['pyflink.table.DataTypes.'+k]='datatypes.'+v
# Duration
for k in ['of_days','of_hours','of_millis','of_minutes','of_nanos','of_seconds']:
    over['pyflink.common.Duration.'+k]='common.Duration'+camel(k)
# Expression members
ex={'upper_case':'UpperCase','lower_case':'LowerCase','in_':'In','if_null':'IfNull','json_exists':'JSONExists','json_value':'JSONValue',
    'sha1':'Sha1','sha2':'Sha2','sha224':'Sha224','sha256':'Sha256','sha384':'Sha384','sha512':'Sha512','md5':'Md5','stddev_pop':'StddevPop','stddev_samp':'StddevSamp',
    'var_pop':'VarPop','var_samp':'VarSamp','sum0':'Sum0','log10':'Log10','log2':'Log2','to_base64':'ToBase64','from_base64':'FromBase64',
    'alias':'As'}
for k,v in ex.items(): over['pyflink.table.Expression.'+k]='table.Expression.'+v
over['pyflink.table.Expression.alias']='table.Expression.As, table.Expression.Alias'
# module functions
mf={'range_':'Range','and_':'And','or_':'Or','map_':'Map','UNBOUNDED_ROW':'UnboundedRow','UNBOUNDED_RANGE':'UnboundedRange','CURRENT_ROW':'CurrentRow',
    'uuid':'UUID','call_sql':'CallSQL','concat_ws':'ConcatWs','null_of':'NullOf','e':'E','pi':'Pi'}
for k,v in mf.items(): over['pyflink.table.expressions.'+k]='table.'+v

notes = {
 'pyflink.table.TableEnvironment.create_java_function':'Go has no class loading: the identifier names a Go function registered with `RegisterGoUDF`',
 'pyflink.table.TableEnvironment.create_java_temporary_function':'Go function registered with `RegisterGoUDF`',
 'pyflink.table.TableEnvironment.create_java_temporary_system_function':'Go function registered with `RegisterGoUDF`',
 'pyflink.table.TableEnvironment.register_java_function':'deprecated wrapper',
 'pyflink.table.TableEnvironment.create_temporary_view':'Table or DataStream',
 'pyflink.table.TableEnvironment.from_elements':'names, or a ROW type with verification',
 'pyflink.table.StreamTableEnvironment.from_data_stream':'StreamTableEnvironment embeds TableEnvironment; Schema or field Expressions',
 'pyflink.table.StreamTableEnvironment.from_changelog_stream':'DataStream over a Go channel or iterator of Rows',
 'pyflink.table.StreamTableEnvironment.to_data_stream':'rows delivered to a channel (DataStream.Rows)',
 'pyflink.table.StreamTableEnvironment.to_changelog_stream':'rows with RowKind delivered to a channel',
 'pyflink.table.StreamTableEnvironment.to_retract_stream':'channel of RetractRecord',
 'pyflink.table.Table.map':'Call(f, Col("*")) passes the whole row',
 'pyflink.table.TableConfig.get_python_executable':'stored only: no Python worker',
 'pyflink.table.TableConfig.set_python_executable':'stored only: no Python worker',
 'pyflink.common.JobClient.stop_with_savepoint':'returns ErrSavepointsNotSupported until the runtime takes savepoints',
 'pyflink.common.JobClient.trigger_savepoint':'returns ErrSavepointsNotSupported until the runtime takes savepoints',
 'pyflink.table.Row.as_dict':'recursive=True is AsDictRecursive',
 'pyflink.common.Row.as_dict':'recursive=True is AsDictRecursive',
}
deprecated = ['scan','register_table','register_table_source','register_table_sink','insert_into','sql_update','explain','execute','register_function','register_java_function','from_table_source']
for d in deprecated:
    notes.setdefault('pyflink.table.TableEnvironment.'+d, 'Deprecated: wrapper')

rows=[]
for c,n,k,l in m:
    if n is None:
        key=c
    else:
        key=c+'.'+n
    if key in NA:
        rows.append((key,'n/a',NA[key],l,k)); continue
    if key in over:
        go=over[key]
    else:
        prefix=cls_map.get(c)
        if prefix is None:
            go='?'
        elif n is None:
            go=prefix if '.' in prefix else '?'
            if c=='pyflink.table.DataTypes': go='datatypes.Row'
        else:
            go=prefix+'.'+camel(n)
    if n is None and c in ('pyflink.table.window.Tumble','pyflink.table.window.Session','pyflink.table.window.Slide','pyflink.table.window.Over'):
        go={'pyflink.table.window.Tumble':'table.TumbleOver','pyflink.table.window.Session':'table.SessionWithGap','pyflink.table.window.Slide':'table.SlideOver','pyflink.table.window.Over':'table.OverPartitionBy, table.OverOrderBy'}[c]
    rows.append((key,go,notes.get(key,''),l,k))
json.dump(rows,open('/tmp/api/rows.json','w'),indent=0)
print(len(rows))
