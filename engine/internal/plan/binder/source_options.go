package binder

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/internal/plan"
)

// parseReplaySpeed parses 'source.replay-speed': 0 means no pacing.
func parseReplaySpeed(v string) (float64, error) {
	v = strings.TrimSpace(v)
	if v == "" || strings.EqualFold(v, "max") {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("invalid value '%s' for option '%s': expected a positive number or 'max'", v, plan.OptReplaySpeed)
	}
	return f, nil
}

// replaySpeed reads 'source.replay-speed' from a table's options and its
// OPTIONS hints.
func (b *binder) replaySpeed(t *catalog.Table, hints map[string]string) float64 {
	v, ok := hints[plan.OptReplaySpeed]
	if !ok {
		v, ok = t.TableOptions[plan.OptReplaySpeed]
	}
	if !ok {
		return 0
	}
	f, err := parseReplaySpeed(v)
	if err != nil {
		b.fail(err)
	}
	return f
}
