package opspec

import (
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// JoinKind is the kind of a join.
type JoinKind uint8

// Join kinds.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	SemiJoin
	AntiJoin
)

func (k JoinKind) String() string {
	return [...]string{"InnerJoin", "LeftOuterJoin", "RightOuterJoin", "FullOuterJoin", "LeftSemiJoin", "LeftAntiJoin"}[k]
}

// JoinSpec describes an equi-join with an optional residual condition
// over the joined row (left columns then right columns).
type JoinSpec struct {
	Kind       JoinKind
	LeftKeys   []int
	RightKeys  []int
	LeftTypes  []*types.DataType
	RightTypes []*types.DataType
	// Residual is a condition over the concatenated row, or nil.
	Residual expr.Expr
	// NullSafe[i] makes key i match NULL with NULL (IS NOT DISTINCT FROM).
	NullSafe []bool
	// UpsertInputs marks the inputs of a streaming inner join that are
	// upsert streams keyed on exactly their join keys (no -U rows; Flink's
	// join input with JoinKeyContainsUniqueKey taking ONLY_UPDATE_AFTER): a
	// +I/+U replaces the row stored for its key, a -D removes it whatever
	// its other columns hold (a tombstone may carry only the key).
	UpsertInputs [2]bool
}

// OutputsLeftOnly reports semi and anti joins, whose rows are the left
// input's.
func (s *JoinSpec) OutputsLeftOnly() bool { return s.Kind == SemiJoin || s.Kind == AntiJoin }
