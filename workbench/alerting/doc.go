// Package alerting evaluates the workbench's alert rules on live queries
// (issue 21): a rule is a streaming query plus a condition — any row
// arrives, a column compares with a value, no row for N seconds, the
// watermark lag above N seconds — an optional sink statement run with the
// triggering row's values (:column placeholders), and a cool-down.
//
// ParseCondition and ValidateSink check a rule before it is saved, with
// the position of a fault. Evaluator is the rule's state machine, driven
// with explicit times; Runner runs a rule's query in an engine session
// (table.TableEnvironment), reads its rows through the collect iterator
// on a goroutine of its own, and reports alerts through a callback. The
// package has no UI dependency.
package alerting
