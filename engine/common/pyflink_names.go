package common

import "time"

// This file is the compatibility layer of package common: PyFlink's
// get_* names, each delegating to the Go-first method named in its doc
// comment. New code calls the Go-first methods.

// GetAutoWatermarkInterval delegates to AutoWatermarkInterval (PyFlink's get_auto_watermark_interval).
func (e *ExecutionConfig) GetAutoWatermarkInterval() int64 { return e.AutoWatermarkInterval() }

// GetLatencyTrackingInterval delegates to LatencyTrackingInterval (PyFlink's get_latency_tracking_interval).
func (e *ExecutionConfig) GetLatencyTrackingInterval() int64 { return e.LatencyTrackingInterval() }

// GetParallelism delegates to Parallelism (PyFlink's get_parallelism).
func (e *ExecutionConfig) GetParallelism() int { return e.Parallelism() }

// GetMaxParallelism delegates to MaxParallelism (PyFlink's get_max_parallelism).
func (e *ExecutionConfig) GetMaxParallelism() int { return e.MaxParallelism() }

// GetTaskCancellationInterval delegates to TaskCancellationInterval (PyFlink's get_task_cancellation_interval).
func (e *ExecutionConfig) GetTaskCancellationInterval() int64 { return e.TaskCancellationInterval() }

// GetTaskCancellationTimeout delegates to TaskCancellationTimeout (PyFlink's get_task_cancellation_timeout).
func (e *ExecutionConfig) GetTaskCancellationTimeout() int64 { return e.TaskCancellationTimeout() }

// GetRestartStrategy delegates to RestartStrategy (PyFlink's get_restart_strategy).
func (e *ExecutionConfig) GetRestartStrategy() RestartStrategyConfiguration {
	return e.RestartStrategy()
}

// GetExecutionMode delegates to ExecutionMode (PyFlink's get_execution_mode).
func (e *ExecutionConfig) GetExecutionMode() ExecutionMode { return e.ExecutionMode() }

// GetDefaultInputDependencyConstraint delegates to DefaultInputDependencyConstraint (PyFlink's get_default_input_dependency_constraint).
func (e *ExecutionConfig) GetDefaultInputDependencyConstraint() InputDependencyConstraint {
	return e.DefaultInputDependencyConstraint()
}

// GetGlobalJobParameters delegates to GlobalJobParameters (PyFlink's get_global_job_parameters).
func (e *ExecutionConfig) GetGlobalJobParameters() map[string]string { return e.GlobalJobParameters() }

// GetRegisteredTypesWithKryoSerializerClasses delegates to RegisteredTypesWithKryoSerializerClasses (PyFlink's get_registered_types_with_kryo_serializer_classes).
func (e *ExecutionConfig) GetRegisteredTypesWithKryoSerializerClasses() map[string]string {
	return e.RegisteredTypesWithKryoSerializerClasses()
}

// GetDefaultKryoSerializerClasses delegates to DefaultKryoSerializerClasses (PyFlink's get_default_kryo_serializer_classes).
func (e *ExecutionConfig) GetDefaultKryoSerializerClasses() map[string]string {
	return e.DefaultKryoSerializerClasses()
}

// GetRegisteredKryoTypes delegates to RegisteredKryoTypes (PyFlink's get_registered_kryo_types).
func (e *ExecutionConfig) GetRegisteredKryoTypes() []string { return e.RegisteredKryoTypes() }

// GetRegisteredPojoTypes delegates to RegisteredPojoTypes (PyFlink's get_registered_pojo_types).
func (e *ExecutionConfig) GetRegisteredPojoTypes() []string { return e.RegisteredPojoTypes() }

// GetJobID delegates to JobID (PyFlink's get_job_id).
func (r *JobExecutionResult) GetJobID() JobID { return r.JobID() }

// GetAccumulatorResult delegates to AccumulatorResult (PyFlink's get_accumulator_result).
func (r *JobExecutionResult) GetAccumulatorResult(name string) any { return r.AccumulatorResult(name) }

// GetAllAccumulatorResults delegates to AllAccumulatorResults (PyFlink's get_all_accumulator_results).
func (r *JobExecutionResult) GetAllAccumulatorResults() map[string]any {
	return r.AllAccumulatorResults()
}

// GetRestartAttempts delegates to RestartAttempts (PyFlink's get_restart_attempts).
func (f *FixedDelayRestartStrategyConfiguration) GetRestartAttempts() int { return f.RestartAttempts() }

// GetDelayBetweenAttemptsInterval delegates to Delay (PyFlink's get_delay_between_attempts_interval).
func (f *FixedDelayRestartStrategyConfiguration) GetDelayBetweenAttemptsInterval() time.Duration {
	return f.Delay()
}

// GetDescription delegates to Description (PyFlink's get_description).
func (f *FixedDelayRestartStrategyConfiguration) GetDescription() string { return f.Description() }

// GetMaxFailureRate delegates to MaxFailureRate (PyFlink's get_max_failure_rate).
func (f *FailureRateRestartStrategyConfiguration) GetMaxFailureRate() int { return f.MaxFailureRate() }

// GetFailureInterval delegates to FailureInterval (PyFlink's get_failure_interval).
func (f *FailureRateRestartStrategyConfiguration) GetFailureInterval() time.Duration {
	return f.FailureInterval()
}

// GetDelayBetweenAttemptsInterval delegates to Delay (PyFlink's get_delay_between_attempts_interval).
func (f *FailureRateRestartStrategyConfiguration) GetDelayBetweenAttemptsInterval() time.Duration {
	return f.Delay()
}

// GetDescription delegates to Description (PyFlink's get_description).
func (f *FailureRateRestartStrategyConfiguration) GetDescription() string { return f.Description() }

// GetDescription delegates to Description (PyFlink's get_description).
func (x NoRestartStrategyConfiguration) GetDescription() string { return x.Description() }

// GetDescription delegates to Description (PyFlink's get_description).
func (x FallbackRestartStrategyConfiguration) GetDescription() string { return x.Description() }

// GetCharset delegates to Charset.
func (s *SimpleStringSchema) GetCharset() string { return s.Charset() }

// GetArity delegates to Arity.
func (t *TypeInformation) GetArity() int { return t.Arity() }

// GetNetRuntime delegates to NetRuntime, in milliseconds (PyFlink's
// get_net_runtime).
func (r *JobExecutionResult) GetNetRuntime() int64 { return r.NetRuntime().Milliseconds() }

// GetNetRuntimeDuration delegates to NetRuntime.
func (r *JobExecutionResult) GetNetRuntimeDuration() time.Duration { return r.NetRuntime() }
