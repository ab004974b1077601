// Package common is Riffle's counterpart of PyFlink's pyflink.common:
// job status and results, restart strategies, execution configuration,
// watermark strategies, durations and instants, type information and
// serialization schemas. Configuration and ConfigOption live in
// engine/config, Row and RowKind in engine/types.
//
// # The name
//
// The package keeps PyFlink's module name on purpose: it holds exactly
// the classes of pyflink.common that Riffle implements, no helpers of its
// own, so a program ported from PyFlink finds `from pyflink.common import
// WatermarkStrategy` as common.ForBoundedOutOfOrderness, and docs/API.md
// maps the module one to one. Riffle's own shared code lives in the
// packages named for what it does (engine/config, engine/types,
// engine/internal/runtime); nothing is to be added here that pyflink.common does
// not have.
//
// # Two layers
//
// Methods have Go names without a Get prefix (ExecutionConfig.Parallelism,
// JobExecutionResult.NetRuntime as a time.Duration, TypeInformation.Arity).
// PyFlink's get_* names stay available in pyflink_names.go, each a
// one-line delegation to the Go-first method its doc comment names, so
// the seeds' examples still read one to one. Setters keep their Set
// prefix, as Go's own setters do.
//
// Two Java types stay for PyFlink's sake: TypeInformation (PyFlink's
// Types, used by the serialization schemas; Go code describes values with
// engine/types' DataType, which TypeInformation.DataType returns) and
// CompletableFuture (returned by JobClient's *Async methods; Go code waits
// with a context, JobClient.Wait(ctx)).
package common
