package filesystem

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/types"
)

type arrowArray = arrow.Array

// constantColumn builds a column of n copies of v.
func constantColumn(t *types.DataType, v any, n int) arrow.Array {
	c := columns.MustNew(t, n)
	for i := 0; i < n; i++ {
		_ = columns.AppendValue(c, v)
	}
	return c.Build()
}

func timeOf(sec, nanos int64) any {
	return time.Unix(sec, nanos).UTC()
}
