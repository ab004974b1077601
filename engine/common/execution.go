package common

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
)

// ExecutionMode says how data exchanges are executed (PyFlink's
// ExecutionMode). Riffle's runtime is pipelined in every mode; the value
// is kept for programs that set it.
type ExecutionMode int

// Execution modes, with Flink's ordinals.
const (
	ExecutionModePipelined ExecutionMode = iota
	ExecutionModePipelinedForced
	ExecutionModeBatch
	ExecutionModeBatchForced
)

func (m ExecutionMode) String() string {
	return [...]string{"PIPELINED", "PIPELINED_FORCED", "BATCH", "BATCH_FORCED"}[m]
}

// InputDependencyConstraint says when a task with several inputs is
// scheduled (PyFlink's InputDependencyConstraint; unused since Flink 1.13).
type InputDependencyConstraint int

// Input dependency constraints.
const (
	InputDependencyConstraintAny InputDependencyConstraint = iota
	InputDependencyConstraintAll
)

func (c InputDependencyConstraint) String() string { return [...]string{"ANY", "ALL"}[c] }

// Parallelism sentinels (PyFlink's ExecutionConfig constants).
const (
	// ParallelismDefault means the environment's default parallelism.
	ParallelismDefault = -1
	// ParallelismUnknown means "leave the parallelism unchanged".
	ParallelismUnknown = -2
)

// Configuration keys ExecutionConfig reads and writes.
const (
	keyParallelism          = "parallelism.default"
	keyMaxParallelism       = "pipeline.max-parallelism"
	keyAutoWatermark        = "pipeline.auto-watermark-interval"
	keyGlobalJobParameters  = "pipeline.global-job-parameters"
	keyObjectReuse          = "pipeline.object-reuse"
	keyGenericTypes         = "pipeline.generic-types"
	keyAutoUIDs             = "pipeline.auto-generate-uids"
	keyForceKryo            = "pipeline.force-kryo"
	keyForceAvro            = "pipeline.force-avro"
	keyAutoTypeRegistration = "pipeline.auto-type-registration"
	keyClosureCleaner       = "pipeline.closure-cleaner-level"
	keyLatencyInterval      = "metrics.latency.interval"
	keyCancelInterval       = "task.cancellation.interval"
	keyCancelTimeout        = "task.cancellation.timeout"
	keySnapshotCompression  = "execution.checkpointing.snapshot-compression"
)

// ExecutionConfig holds how a program is executed (PyFlink's
// ExecutionConfig): parallelism, watermark interval, global job
// parameters, restart strategy and JVM-specific switches. Settings with a
// Flink configuration key are stored in the Configuration it wraps (so
// they reach the jobs of a TableEnvironment whose configuration it is);
// Java-only settings (Kryo, Avro, POJO, closure cleaning) are recorded
// and have no effect in Go. Setters return the config for chaining.
type ExecutionConfig struct {
	conf *config.Configuration

	mu               sync.Mutex
	mode             ExecutionMode
	constraint       InputDependencyConstraint
	kryoSerializers  map[string]string
	typeSerializers  map[string]string
	kryoTypes        []string
	pojoTypes        []string
	restartStrategy  RestartStrategyConfiguration
	explicitRestarts bool
}

// NewExecutionConfig wraps a configuration (nil: a new one).
func NewExecutionConfig(c *config.Configuration) *ExecutionConfig {
	if c == nil {
		c = config.New()
	}
	return &ExecutionConfig{conf: c, kryoSerializers: map[string]string{}, typeSerializers: map[string]string{}}
}

// Configuration returns the wrapped configuration.
func (e *ExecutionConfig) Configuration() *config.Configuration { return e.conf }

func (e *ExecutionConfig) setBool(key string, v bool) *ExecutionConfig {
	e.conf.SetBoolean(key, v)
	return e
}

// EnableClosureCleaner is recorded only: Go closures need no cleaning
// (PyFlink's enable_closure_cleaner).
func (e *ExecutionConfig) EnableClosureCleaner() *ExecutionConfig {
	e.conf.Set(keyClosureCleaner, "RECURSIVE")
	return e
}

// DisableClosureCleaner is recorded only (PyFlink's
// disable_closure_cleaner).
func (e *ExecutionConfig) DisableClosureCleaner() *ExecutionConfig {
	e.conf.Set(keyClosureCleaner, "NONE")
	return e
}

// IsClosureCleanerEnabled reports the recorded setting (default true)
// (PyFlink's is_closure_cleaner_enabled).
func (e *ExecutionConfig) IsClosureCleanerEnabled() bool {
	return !strings.EqualFold(e.conf.GetString(keyClosureCleaner, "RECURSIVE"), "NONE")
}

// SetAutoWatermarkInterval sets the interval of periodic watermarks in
// milliseconds (pipeline.auto-watermark-interval) (PyFlink's
// set_auto_watermark_interval).
func (e *ExecutionConfig) SetAutoWatermarkInterval(ms int64) *ExecutionConfig {
	e.conf.SetDuration(keyAutoWatermark, time.Duration(ms)*time.Millisecond)
	return e
}

// AutoWatermarkInterval returns the watermark interval in milliseconds
// (default 200) (PyFlink's get_auto_watermark_interval).
func (e *ExecutionConfig) AutoWatermarkInterval() int64 {
	return e.conf.GetDuration(keyAutoWatermark, 200*time.Millisecond).Milliseconds()
}

// SetLatencyTrackingInterval sets the latency marker interval in
// milliseconds; <= 0 disables tracking (PyFlink's
// set_latency_tracking_interval).
func (e *ExecutionConfig) SetLatencyTrackingInterval(ms int64) *ExecutionConfig {
	e.conf.SetInteger(keyLatencyInterval, ms)
	return e
}

// LatencyTrackingInterval returns the latency tracking interval in
// milliseconds (default 0: disabled) (PyFlink's
// get_latency_tracking_interval).
func (e *ExecutionConfig) LatencyTrackingInterval() int64 {
	return e.conf.GetInteger(keyLatencyInterval, 0)
}

// Parallelism returns the parallelism, or ParallelismDefault when the
// environment's default applies (PyFlink's get_parallelism).
func (e *ExecutionConfig) Parallelism() int {
	return int(e.conf.GetInteger(keyParallelism, ParallelismDefault))
}

// SetParallelism sets the default parallelism (parallelism.default);
// ParallelismDefault resets it and ParallelismUnknown leaves it (PyFlink's
// set_parallelism). Other values below 1 are errors.
func (e *ExecutionConfig) SetParallelism(n int) (*ExecutionConfig, error) {
	switch {
	case n == ParallelismUnknown:
	case n == ParallelismDefault:
		e.conf.Remove(keyParallelism)
	case n < 1:
		return e, fmt.Errorf("Parallelism must be at least one, or ExecutionConfig.PARALLELISM_DEFAULT (use system default), got %d", n)
	default:
		e.conf.SetInteger(keyParallelism, int64(n))
	}
	return e, nil
}

// MaxParallelism returns the maximum parallelism (the number of key
// groups), -1 when unset (PyFlink's get_max_parallelism).
func (e *ExecutionConfig) MaxParallelism() int {
	return int(e.conf.GetInteger(keyMaxParallelism, -1))
}

// SetMaxParallelism sets the maximum parallelism (PyFlink's
// set_max_parallelism); it must be positive.
func (e *ExecutionConfig) SetMaxParallelism(n int) (*ExecutionConfig, error) {
	if n <= 0 {
		return e, fmt.Errorf("Maximum parallelism must be positive, got %d", n)
	}
	e.conf.SetInteger(keyMaxParallelism, int64(n))
	return e, nil
}

// TaskCancellationInterval returns the interval between attempts to
// cancel a task in milliseconds (default 30000) (PyFlink's
// get_task_cancellation_interval).
func (e *ExecutionConfig) TaskCancellationInterval() int64 {
	return e.conf.GetInteger(keyCancelInterval, 30000)
}

// SetTaskCancellationInterval sets it (PyFlink's
// set_task_cancellation_interval).
func (e *ExecutionConfig) SetTaskCancellationInterval(ms int64) *ExecutionConfig {
	e.conf.SetInteger(keyCancelInterval, ms)
	return e
}

// TaskCancellationTimeout returns the time after which a stuck task
// cancellation is fatal, in milliseconds; 0 disables it (default 180000)
// (PyFlink's get_task_cancellation_timeout).
func (e *ExecutionConfig) TaskCancellationTimeout() int64 {
	return e.conf.GetInteger(keyCancelTimeout, 180000)
}

// SetTaskCancellationTimeout sets it; it must not be negative (PyFlink's
// set_task_cancellation_timeout).
func (e *ExecutionConfig) SetTaskCancellationTimeout(ms int64) (*ExecutionConfig, error) {
	if ms < 0 {
		return e, fmt.Errorf("Timeout value must be >= 0, got %d", ms)
	}
	e.conf.SetInteger(keyCancelTimeout, ms)
	return e, nil
}

// SetRestartStrategy sets the restart strategy and writes its
// restart-strategy.* keys (PyFlink's set_restart_strategy).
func (e *ExecutionConfig) SetRestartStrategy(s RestartStrategyConfiguration) *ExecutionConfig {
	e.mu.Lock()
	e.restartStrategy, e.explicitRestarts = s, true
	e.mu.Unlock()
	if s != nil {
		s.ApplyTo(e.conf)
	}
	return e
}

// RestartStrategy returns the restart strategy set, or the one the
// configuration keys describe (the fallback strategy when none) (PyFlink's
// get_restart_strategy).
func (e *ExecutionConfig) RestartStrategy() RestartStrategyConfiguration {
	e.mu.Lock()
	s, ok := e.restartStrategy, e.explicitRestarts
	e.mu.Unlock()
	if ok && s != nil {
		return s
	}
	s, err := RestartStrategyFromConfiguration(e.conf)
	if err != nil {
		return FallbackRestartStrategyConfiguration{}
	}
	return s
}

// SetExecutionMode sets the execution mode (PyFlink's set_execution_mode).
func (e *ExecutionConfig) SetExecutionMode(m ExecutionMode) *ExecutionConfig {
	e.mu.Lock()
	e.mode = m
	e.mu.Unlock()
	return e
}

// ExecutionMode returns the execution mode (default PIPELINED)
// (PyFlink's get_execution_mode).
func (e *ExecutionConfig) ExecutionMode() ExecutionMode {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mode
}

// SetDefaultInputDependencyConstraint sets the constraint (PyFlink's
// set_default_input_dependency_constraint).
//
// Deprecated: unused since Flink 1.13.
func (e *ExecutionConfig) SetDefaultInputDependencyConstraint(c InputDependencyConstraint) *ExecutionConfig {
	e.mu.Lock()
	e.constraint = c
	e.mu.Unlock()
	return e
}

// DefaultInputDependencyConstraint returns the constraint (default ANY)
// (PyFlink's get_default_input_dependency_constraint).
//
// Deprecated: unused since Flink 1.13.
func (e *ExecutionConfig) DefaultInputDependencyConstraint() InputDependencyConstraint {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.constraint
}

// EnableForceKryo is recorded only: Go has no Kryo (PyFlink's
// enable_force_kryo).
func (e *ExecutionConfig) EnableForceKryo() *ExecutionConfig { return e.setBool(keyForceKryo, true) }

// DisableForceKryo is recorded only (PyFlink's disable_force_kryo).
func (e *ExecutionConfig) DisableForceKryo() *ExecutionConfig { return e.setBool(keyForceKryo, false) }

// IsForceKryoEnabled reports the recorded setting (default false)
// (PyFlink's is_force_kryo_enabled).
func (e *ExecutionConfig) IsForceKryoEnabled() bool { return e.conf.GetBoolean(keyForceKryo, false) }

// EnableGenericTypes is recorded only (PyFlink's enable_generic_types).
func (e *ExecutionConfig) EnableGenericTypes() *ExecutionConfig {
	return e.setBool(keyGenericTypes, true)
}

// DisableGenericTypes is recorded only (PyFlink's disable_generic_types).
func (e *ExecutionConfig) DisableGenericTypes() *ExecutionConfig {
	return e.setBool(keyGenericTypes, false)
}

// HasGenericTypesDisabled reports the recorded setting (default false:
// generic types enabled) (PyFlink's has_generic_types_disabled).
func (e *ExecutionConfig) HasGenericTypesDisabled() bool {
	return !e.conf.GetBoolean(keyGenericTypes, true)
}

// EnableAutoGeneratedUIDs is recorded only (PyFlink's
// enable_auto_generated_uids).
func (e *ExecutionConfig) EnableAutoGeneratedUIDs() *ExecutionConfig {
	return e.setBool(keyAutoUIDs, true)
}

// DisableAutoGeneratedUIDs is recorded only (PyFlink's
// disable_auto_generated_uids).
func (e *ExecutionConfig) DisableAutoGeneratedUIDs() *ExecutionConfig {
	return e.setBool(keyAutoUIDs, false)
}

// HasAutoGeneratedUIDsEnabled reports the recorded setting (default true)
// (PyFlink's has_auto_generated_uids_enabled).
func (e *ExecutionConfig) HasAutoGeneratedUIDsEnabled() bool {
	return e.conf.GetBoolean(keyAutoUIDs, true)
}

// EnableForceAvro is recorded only (PyFlink's enable_force_avro).
func (e *ExecutionConfig) EnableForceAvro() *ExecutionConfig { return e.setBool(keyForceAvro, true) }

// DisableForceAvro is recorded only (PyFlink's disable_force_avro).
func (e *ExecutionConfig) DisableForceAvro() *ExecutionConfig { return e.setBool(keyForceAvro, false) }

// IsForceAvroEnabled reports the recorded setting (default false)
// (PyFlink's is_force_avro_enabled).
func (e *ExecutionConfig) IsForceAvroEnabled() bool { return e.conf.GetBoolean(keyForceAvro, false) }

// EnableObjectReuse lets operators reuse record objects (PyFlink's
// enable_object_reuse). Riffle's batches are immutable, so reuse is
// always safe; the setting is recorded.
func (e *ExecutionConfig) EnableObjectReuse() *ExecutionConfig {
	return e.setBool(keyObjectReuse, true)
}

// DisableObjectReuse is recorded (PyFlink's disable_object_reuse).
func (e *ExecutionConfig) DisableObjectReuse() *ExecutionConfig {
	return e.setBool(keyObjectReuse, false)
}

// IsObjectReuseEnabled reports the setting (default false) (PyFlink's
// is_object_reuse_enabled).
func (e *ExecutionConfig) IsObjectReuseEnabled() bool {
	return e.conf.GetBoolean(keyObjectReuse, false)
}

// GlobalJobParameters returns the global job parameters (PyFlink's
// get_global_job_parameters); user functions read them with
// FunctionContext.GetJobParameter.
func (e *ExecutionConfig) GlobalJobParameters() map[string]string {
	return config.ParseMapValue(e.conf.GetString(keyGlobalJobParameters, ""))
}

// SetGlobalJobParameters replaces the global job parameters
// (pipeline.global-job-parameters) (PyFlink's set_global_job_parameters).
func (e *ExecutionConfig) SetGlobalJobParameters(params map[string]string) *ExecutionConfig {
	e.conf.Set(keyGlobalJobParameters, config.FormatMapValue(params))
	return e
}

// AddDefaultKryoSerializer records a Kryo serializer class for a type
// class; no effect in Go (PyFlink's add_default_kryo_serializer).
func (e *ExecutionConfig) AddDefaultKryoSerializer(typeClassName, serializerClassName string) *ExecutionConfig {
	e.mu.Lock()
	e.kryoSerializers[typeClassName] = serializerClassName
	e.mu.Unlock()
	return e
}

// RegisterTypeWithKryoSerializer records a type's Kryo serializer; no
// effect in Go (PyFlink's register_type_with_kryo_serializer).
func (e *ExecutionConfig) RegisterTypeWithKryoSerializer(typeClassName, serializerClassName string) *ExecutionConfig {
	e.mu.Lock()
	e.typeSerializers[typeClassName] = serializerClassName
	e.mu.Unlock()
	return e
}

// RegisterPojoType records a POJO type; no effect in Go (PyFlink's
// register_pojo_type).
func (e *ExecutionConfig) RegisterPojoType(typeClassName string) *ExecutionConfig {
	e.mu.Lock()
	e.pojoTypes = append(e.pojoTypes, typeClassName)
	e.mu.Unlock()
	return e
}

// RegisterKryoType records a Kryo type; no effect in Go (PyFlink's
// register_kryo_type).
func (e *ExecutionConfig) RegisterKryoType(typeClassName string) *ExecutionConfig {
	e.mu.Lock()
	e.kryoTypes = append(e.kryoTypes, typeClassName)
	e.mu.Unlock()
	return e
}

// RegisteredTypesWithKryoSerializerClasses returns the recorded type
// serializers (PyFlink's get_registered_types_with_kryo_serializer_classes).
func (e *ExecutionConfig) RegisteredTypesWithKryoSerializerClasses() map[string]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return copyStrings(e.typeSerializers)
}

// DefaultKryoSerializerClasses returns the recorded default serializers
// (PyFlink's get_default_kryo_serializer_classes).
func (e *ExecutionConfig) DefaultKryoSerializerClasses() map[string]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return copyStrings(e.kryoSerializers)
}

// RegisteredKryoTypes returns the recorded Kryo types (PyFlink's
// get_registered_kryo_types).
func (e *ExecutionConfig) RegisteredKryoTypes() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.kryoTypes...)
}

// RegisteredPojoTypes returns the recorded POJO types (PyFlink's
// get_registered_pojo_types).
func (e *ExecutionConfig) RegisteredPojoTypes() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.pojoTypes...)
}

// IsAutoTypeRegistrationDisabled reports the recorded setting (default
// false) (PyFlink's is_auto_type_registration_disabled).
func (e *ExecutionConfig) IsAutoTypeRegistrationDisabled() bool {
	return !e.conf.GetBoolean(keyAutoTypeRegistration, true)
}

// DisableAutoTypeRegistration is recorded only (PyFlink's
// disable_auto_type_registration).
func (e *ExecutionConfig) DisableAutoTypeRegistration() *ExecutionConfig {
	return e.setBool(keyAutoTypeRegistration, false)
}

// IsUseSnapshotCompression reports whether keyed state snapshots are
// compressed (default false) (PyFlink's is_use_snapshot_compression).
func (e *ExecutionConfig) IsUseSnapshotCompression() bool {
	return e.conf.GetBoolean(keySnapshotCompression, false)
}

// SetUseSnapshotCompression sets it (PyFlink's
// set_use_snapshot_compression).
func (e *ExecutionConfig) SetUseSnapshotCompression(v bool) *ExecutionConfig {
	return e.setBool(keySnapshotCompression, v)
}

func copyStrings(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
