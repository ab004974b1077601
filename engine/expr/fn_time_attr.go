package expr

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Time attribute functions (Flink's docs/dev/table/functions/systemFunctions
// "Temporal functions" and concepts/time_attributes.md).
func init() {
	// PROCTIME() declares a processing-time attribute: TIMESTAMP_LTZ(3)
	// *PROCTIME* NOT NULL, the current time when a row is processed.
	Builtins.Register(&Function{Name: "PROCTIME", Category: "Temporal", MinArgs: 0, MaxArgs: 0, NonDeterministic: true,
		Signatures:  []string{"PROCTIME() -> TIMESTAMP_LTZ(3) *PROCTIME*"},
		Description: "Returns a processing-time attribute: the current time of the processing machine.",
		Infer: func(*InferCtx) (*types.DataType, error) {
			return types.TimestampLTZType(3).NotNull().WithTimeAttr(types.Proctime), nil
		},
		Build: func(_ []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(ctx *Ctx, _ []*Vec, n int) (*Vec, error) {
				now := time.Now()
				if ctx != nil && ctx.Now != nil {
					now = ctx.Now()
				}
				vals := make([]int64, n)
				ms := now.UnixMilli()
				for i := range vals {
					vals[i] = ms
				}
				return &Vec{Arr: vector.FromValues(types.ToArrow(ret), vals, nil, 0), T: ret}, nil
			}, nil
		}})
	// CURRENT_WATERMARK(rowtime) is the current watermark for the rowtime
	// attribute, NULL before the first watermark.
	Builtins.Register(&Function{Name: "CURRENT_WATERMARK", Category: "Temporal", MinArgs: 1, MaxArgs: 1, NonDeterministic: true,
		Signatures:  []string{"CURRENT_WATERMARK(<ROWTIME>) -> TIMESTAMP(3) | TIMESTAMP_LTZ(3)"},
		Description: "Returns the current watermark for the given rowtime attribute, or NULL if no watermark has been emitted yet.",
		Infer: func(c *InferCtx) (*types.DataType, error) {
			t := c.Args[0]
			if !t.IsRowtime() {
				return nil, typeErrorf("The argument of CURRENT_WATERMARK() must be a rowtime attribute, but was '%s'.", t)
			}
			if t.Root == types.TimestampLTZRoot {
				return types.TimestampLTZType(3), nil
			}
			return types.TimestampType(3), nil
		},
		Build: func(_ []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(ctx *Ctx, _ []*Vec, n int) (*Vec, error) {
				if ctx == nil || ctx.Watermark == nil {
					return ConstVec(nil, ret), nil
				}
				wm, ok := ctx.Watermark()
				if !ok {
					return ConstVec(nil, ret), nil
				}
				vals := make([]int64, n)
				for i := range vals {
					vals[i] = wm
				}
				return &Vec{Arr: vector.FromValues(&arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: tzOf(ret)}, vals, nil, 0), T: ret}, nil
			}, nil
		}})
}

func tzOf(t *types.DataType) string {
	if t.Root == types.TimestampLTZRoot {
		return "UTC"
	}
	return ""
}
