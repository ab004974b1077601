package common

import (
	"fmt"
	"time"
)

// Duration helpers (PyFlink's Duration): Go's time.Duration is the
// duration type; these constructors mirror PyFlink's static methods.

// DurationOfDays returns n days (PyFlink's Duration.of_days).
func DurationOfDays(n int64) time.Duration { return time.Duration(n) * 24 * time.Hour }

// DurationOfHours returns n hours (PyFlink's Duration.of_hours).
func DurationOfHours(n int64) time.Duration { return time.Duration(n) * time.Hour }

// DurationOfMinutes returns n minutes (PyFlink's Duration.of_minutes).
func DurationOfMinutes(n int64) time.Duration { return time.Duration(n) * time.Minute }

// DurationOfSeconds returns n seconds (PyFlink's Duration.of_seconds).
func DurationOfSeconds(n int64) time.Duration { return time.Duration(n) * time.Second }

// DurationOfMillis returns n milliseconds (PyFlink's Duration.of_millis).
func DurationOfMillis(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// DurationOfNanos returns n nanoseconds (PyFlink's Duration.of_nanos).
func DurationOfNanos(n int64) time.Duration { return time.Duration(n) }

// Instant is a point on the time line: seconds and nanoseconds since the
// epoch (PyFlink's Instant).
type Instant struct {
	Seconds int64
	Nanos   int32
}

// NewInstant builds an instant from seconds and nanoseconds (PyFlink's
// Instant(seconds, nanos)).
func NewInstant(seconds int64, nanos int32) Instant {
	for nanos >= 1e9 {
		seconds++
		nanos -= 1e9
	}
	for nanos < 0 {
		seconds--
		nanos += 1e9
	}
	return Instant{Seconds: seconds, Nanos: nanos}
}

// InstantOfEpochMilli builds an instant from milliseconds since the epoch
// (PyFlink's Instant.of_epoch_milli).
func InstantOfEpochMilli(ms int64) Instant {
	s, m := ms/1000, ms%1000
	if m < 0 {
		s--
		m += 1000
	}
	return Instant{Seconds: s, Nanos: int32(m) * 1e6}
}

// ToEpochMilli returns the milliseconds since the epoch (PyFlink's
// to_epoch_milli).
func (i Instant) ToEpochMilli() int64 { return i.Seconds*1000 + int64(i.Nanos)/1e6 }

// Time returns the instant as a Go time in UTC.
func (i Instant) Time() time.Time { return time.Unix(i.Seconds, int64(i.Nanos)).UTC() }

// String renders ISO-8601, e.g. "2021-04-13T20:12:11.123Z".
func (i Instant) String() string { return i.Time().Format("2006-01-02T15:04:05.999999999Z") }

// Time is a span of time in milliseconds (PyFlink's Time, used by window
// and restart APIs).
type Time struct{ ms int64 }

// TimeMilliseconds returns a Time of n milliseconds (PyFlink's
// Time.milliseconds).
func TimeMilliseconds(n int64) Time { return Time{n} }

// TimeSeconds returns a Time of n seconds (PyFlink's Time.seconds).
func TimeSeconds(n int64) Time { return Time{n * 1000} }

// TimeMinutes returns a Time of n minutes (PyFlink's Time.minutes).
func TimeMinutes(n int64) Time { return Time{n * 60_000} }

// TimeHours returns a Time of n hours (PyFlink's Time.hours).
func TimeHours(n int64) Time { return Time{n * 3_600_000} }

// TimeDays returns a Time of n days (PyFlink's Time.days).
func TimeDays(n int64) Time { return Time{n * 86_400_000} }

// ToMilliseconds returns the span in milliseconds (PyFlink's
// to_milliseconds).
func (t Time) ToMilliseconds() int64 { return t.ms }

// Duration returns the span as a time.Duration.
func (t Time) Duration() time.Duration { return time.Duration(t.ms) * time.Millisecond }

// String renders "<n> ms".
func (t Time) String() string { return fmt.Sprintf("%d ms", t.ms) }

// TimestampAssigner extracts an event timestamp (milliseconds since the
// epoch) from a record (PyFlink's TimestampAssigner); recordTimestamp is
// the record's current timestamp, or a negative value when it has none.
type TimestampAssigner interface {
	ExtractTimestamp(value any, recordTimestamp int64) int64
}

// TimestampAssignerFunc adapts a func to TimestampAssigner.
type TimestampAssignerFunc func(value any, recordTimestamp int64) int64

// ExtractTimestamp implements TimestampAssigner.
func (f TimestampAssignerFunc) ExtractTimestamp(value any, recordTimestamp int64) int64 {
	return f(value, recordTimestamp)
}

// WatermarkStrategy says how a stream's timestamps and watermarks are
// generated (PyFlink's WatermarkStrategy). Watermarks follow the largest
// timestamp seen minus the out-of-orderness bound.
type WatermarkStrategy struct {
	maxOutOfOrderness time.Duration
	idleness          time.Duration
	assigner          TimestampAssigner
}

// ForMonotonousTimestamps is a strategy for ascending timestamps: the
// watermark tightly follows the latest timestamp (PyFlink's
// for_monotonous_timestamps).
func ForMonotonousTimestamps() WatermarkStrategy { return WatermarkStrategy{} }

// ForBoundedOutOfOrderness is a strategy for timestamps out of order by at
// most maxOutOfOrderness: after timestamp T, no event older than T - B is
// expected (PyFlink's for_bounded_out_of_orderness).
func ForBoundedOutOfOrderness(maxOutOfOrderness time.Duration) WatermarkStrategy {
	return WatermarkStrategy{maxOutOfOrderness: maxOutOfOrderness}
}

// WithIdleness marks an input idle when it sends nothing for timeout, so
// that it does not hold back the watermark (PyFlink's with_idleness).
func (w WatermarkStrategy) WithIdleness(timeout time.Duration) WatermarkStrategy {
	w.idleness = timeout
	return w
}

// WithTimestampAssigner sets how record timestamps are extracted
// (PyFlink's with_timestamp_assigner).
func (w WatermarkStrategy) WithTimestampAssigner(a TimestampAssigner) WatermarkStrategy {
	w.assigner = a
	return w
}

// MaxOutOfOrderness returns the out-of-orderness bound (0 for monotonous
// timestamps).
func (w WatermarkStrategy) MaxOutOfOrderness() time.Duration { return w.maxOutOfOrderness }

// Idleness returns the idle timeout (0 = none).
func (w WatermarkStrategy) Idleness() time.Duration { return w.idleness }

// TimestampAssigner returns the assigner, or nil.
func (w WatermarkStrategy) TimestampAssigner() TimestampAssigner { return w.assigner }

// Watermark returns the watermark after the largest timestamp maxTs (ms):
// maxTs - bound - 1, as Flink's BoundedOutOfOrdernessWatermarks.
func (w WatermarkStrategy) Watermark(maxTs int64) int64 {
	return maxTs - w.maxOutOfOrderness.Milliseconds() - 1
}
