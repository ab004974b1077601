package common

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
)

// Configuration keys of restart strategies (Flink's RestartStrategyOptions).
const (
	RestartStrategyKey             = "restart-strategy"
	FixedDelayAttemptsKey          = "restart-strategy.fixed-delay.attempts"
	FixedDelayDelayKey             = "restart-strategy.fixed-delay.delay"
	FailureRateMaxFailuresKey      = "restart-strategy.failure-rate.max-failures-per-interval"
	FailureRateIntervalKey         = "restart-strategy.failure-rate.failure-rate-interval"
	FailureRateDelayKey            = "restart-strategy.failure-rate.delay"
	restartNone, restartFixedDelay = "none", "fixed-delay"
	restartFailureRate             = "failure-rate"
)

// RestartStrategyConfiguration describes how a failed job is restarted
// (PyFlink's RestartStrategyConfiguration). The concrete strategies are
// built with RestartStrategies' functions; ApplyTo writes one as
// configuration keys and RestartStrategyFromConfiguration reads it back.
type RestartStrategyConfiguration interface {
	// Description describes the strategy (PyFlink's get_description).
	Description() string
	// GetDescription is Description under PyFlink's name, so that
	// get_restart_strategy().get_description() ports as
	// GetRestartStrategy().GetDescription(); each strategy's
	// (pyflink_names.go) delegates to Description.
	GetDescription() string
	// ApplyTo writes the strategy's restart-strategy.* keys.
	ApplyTo(c *config.Configuration)
}

// FixedDelayRestartStrategyConfiguration restarts a fixed number of times
// with a fixed delay (PyFlink's FixedDelayRestartStrategyConfiguration).
type FixedDelayRestartStrategyConfiguration struct {
	attempts int
	delay    time.Duration
}

// RestartAttempts returns the number of attempts (PyFlink's
// get_restart_attempts).
func (f *FixedDelayRestartStrategyConfiguration) RestartAttempts() int { return f.attempts }

// Delay returns the delay (PyFlink's
// get_delay_between_attempts_interval).
func (f *FixedDelayRestartStrategyConfiguration) Delay() time.Duration {
	return f.delay
}

// Description implements RestartStrategyConfiguration.
func (f *FixedDelayRestartStrategyConfiguration) Description() string {
	return fmt.Sprintf("Restart with fixed delay (%s). #%d restart attempts.", f.delay, f.attempts)
}

// ApplyTo implements RestartStrategyConfiguration.
func (f *FixedDelayRestartStrategyConfiguration) ApplyTo(c *config.Configuration) {
	c.Set(RestartStrategyKey, restartFixedDelay)
	c.SetInteger(FixedDelayAttemptsKey, int64(f.attempts))
	c.SetDuration(FixedDelayDelayKey, f.delay)
}

// FailureRateRestartStrategyConfiguration restarts until more than a
// number of failures happen within an interval (PyFlink's
// FailureRateRestartStrategyConfiguration).
type FailureRateRestartStrategyConfiguration struct {
	maxFailures int
	interval    time.Duration
	delay       time.Duration
}

// MaxFailureRate returns the failures allowed per interval (PyFlink's
// get_max_failure_rate).
func (f *FailureRateRestartStrategyConfiguration) MaxFailureRate() int { return f.maxFailures }

// FailureInterval returns the interval (PyFlink's
// get_failure_interval).
func (f *FailureRateRestartStrategyConfiguration) FailureInterval() time.Duration {
	return f.interval
}

// Delay returns the delay (PyFlink's
// get_delay_between_attempts_interval).
func (f *FailureRateRestartStrategyConfiguration) Delay() time.Duration {
	return f.delay
}

// Description implements RestartStrategyConfiguration.
func (f *FailureRateRestartStrategyConfiguration) Description() string {
	return fmt.Sprintf("Failure rate restart with maximum of %d failures within interval %s and fixed delay %s.", f.maxFailures, f.interval, f.delay)
}

// ApplyTo implements RestartStrategyConfiguration.
func (f *FailureRateRestartStrategyConfiguration) ApplyTo(c *config.Configuration) {
	c.Set(RestartStrategyKey, restartFailureRate)
	c.SetInteger(FailureRateMaxFailuresKey, int64(f.maxFailures))
	c.SetDuration(FailureRateIntervalKey, f.interval)
	c.SetDuration(FailureRateDelayKey, f.delay)
}

// NoRestartStrategyConfiguration never restarts (PyFlink's
// NoRestartStrategyConfiguration).
type NoRestartStrategyConfiguration struct{}

// Description implements RestartStrategyConfiguration.
func (NoRestartStrategyConfiguration) Description() string { return "Restart deactivated." }

// ApplyTo implements RestartStrategyConfiguration.
func (NoRestartStrategyConfiguration) ApplyTo(c *config.Configuration) {
	c.Set(RestartStrategyKey, restartNone)
}

// FallbackRestartStrategyConfiguration uses the cluster-level strategy
// (PyFlink's FallbackRestartStrategyConfiguration): the session's
// restart-strategy keys are left as they are.
type FallbackRestartStrategyConfiguration struct{}

// Description implements RestartStrategyConfiguration.
func (FallbackRestartStrategyConfiguration) Description() string {
	return "Cluster level default restart strategy"
}

// ApplyTo implements RestartStrategyConfiguration (it removes the
// job-level keys).
func (FallbackRestartStrategyConfiguration) ApplyTo(c *config.Configuration) {
	for _, k := range []string{RestartStrategyKey, FixedDelayAttemptsKey, FixedDelayDelayKey, FailureRateMaxFailuresKey, FailureRateIntervalKey, FailureRateDelayKey} {
		c.Remove(k)
	}
}

// RestartStrategiesFixedDelayRestart restarts up to attempts times,
// waiting delay in between (PyFlink's RestartStrategies.fixed_delay_restart).
func RestartStrategiesFixedDelayRestart(attempts int, delay time.Duration) *FixedDelayRestartStrategyConfiguration {
	return &FixedDelayRestartStrategyConfiguration{attempts: attempts, delay: delay}
}

// RestartStrategiesFailureRateRestart restarts unless more than
// maxFailures failures happen within interval, waiting delay in between
// (PyFlink's RestartStrategies.failure_rate_restart).
func RestartStrategiesFailureRateRestart(maxFailures int, interval, delay time.Duration) *FailureRateRestartStrategyConfiguration {
	return &FailureRateRestartStrategyConfiguration{maxFailures: maxFailures, interval: interval, delay: delay}
}

// RestartStrategiesNoRestart never restarts (PyFlink's
// RestartStrategies.no_restart).
func RestartStrategiesNoRestart() NoRestartStrategyConfiguration {
	return NoRestartStrategyConfiguration{}
}

// RestartStrategiesFallBackRestart uses the cluster-level strategy
// (PyFlink's RestartStrategies.fall_back_restart).
func RestartStrategiesFallBackRestart() FallbackRestartStrategyConfiguration {
	return FallbackRestartStrategyConfiguration{}
}

// RestartStrategyFromConfiguration reads the restart-strategy.* keys:
// "fixed-delay" (attempts default 1, delay default 1 s), "failure-rate"
// (1 failure per 1 min, delay 1 s), "none"/"off"/"disable"; unset gives
// the fallback strategy.
func RestartStrategyFromConfiguration(c *config.Configuration) (RestartStrategyConfiguration, error) {
	v, ok := c.Get(RestartStrategyKey)
	if !ok {
		return FallbackRestartStrategyConfiguration{}, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "none", "off", "disable":
		return NoRestartStrategyConfiguration{}, nil
	case "fixed-delay", "fixeddelay":
		attempts, err := intKey(c, FixedDelayAttemptsKey, 1)
		if err != nil {
			return nil, err
		}
		delay, err := durationKey(c, FixedDelayDelayKey, time.Second)
		if err != nil {
			return nil, err
		}
		return RestartStrategiesFixedDelayRestart(attempts, delay), nil
	case "failure-rate", "failurerate":
		n, err := intKey(c, FailureRateMaxFailuresKey, 1)
		if err != nil {
			return nil, err
		}
		interval, err := durationKey(c, FailureRateIntervalKey, time.Minute)
		if err != nil {
			return nil, err
		}
		delay, err := durationKey(c, FailureRateDelayKey, time.Second)
		if err != nil {
			return nil, err
		}
		return RestartStrategiesFailureRateRestart(n, interval, delay), nil
	}
	return nil, fmt.Errorf("Unknown restart strategy %s", v)
}

func intKey(c *config.Configuration, key string, def int) (int, error) {
	v, ok := c.Get(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("Could not parse value '%s' for key '%s'", v, key)
	}
	return n, nil
}

func durationKey(c *config.Configuration, key string, def time.Duration) (time.Duration, error) {
	v, ok := c.Get(key)
	if !ok {
		return def, nil
	}
	d, err := config.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("Could not parse value '%s' for key '%s': %v", v, key, err)
	}
	return d, nil
}
