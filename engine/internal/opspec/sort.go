package opspec

// SortKey is one ORDER BY key.
type SortKey struct {
	Col        int
	Desc       bool
	NullsFirst bool
}

// DefaultNullsFirst is Flink's default null ordering: NULL is the smallest
// value, so NULLS FIRST for ASC and NULLS LAST for DESC.
func DefaultNullsFirst(desc bool) bool { return !desc }
