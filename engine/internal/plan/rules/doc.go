// Package rules rewrites logical plans (engine/internal/plan nodes) into
// equivalent ones: Optimize runs the streaming rules (window TVF + GROUP
// BY window → WindowAggregate, ROW_NUMBER Top-N → Rank or Deduplicate,
// joins on window bounds → WindowJoin), filter push-down, empty-aggregate
// reduction, partition pruning and column pruning. Each rule family has
// data-driven tests (query → plan before and after) in testdata/, run by
// TestRules.
package rules
