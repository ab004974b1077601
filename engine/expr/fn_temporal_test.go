package expr

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/types"
)

// EXTRACT of a time-of-day unit from a TIMESTAMP by arithmetic gives what
// extractField gives on the time.Time, at every precision, for instants
// before and after the epoch and on unit boundaries.
func TestExtractTimeOfDayMatchesTime(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for _, u := range []arrow.TimeUnit{arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond} {
		ups := types.UnitsPerSecond(u)
		vals := []int64{0, -1, 1, 3600 * ups, 3600*ups - 1, -3600 * ups, 86_400*ups - 1, -86_400 * ups, 1_700_000_000*ups + 123}
		for i := 0; i < 2000; i++ {
			vals = append(vals, (r.Int63n(8e9)-4e9)*ups+r.Int63n(ups))
		}
		for unit := range timeOfDayUnits {
			out := make([]int64, len(vals))
			extractTimeOfDay(unit, ups, vals, out)
			for i, v := range vals {
				want, err := extractField(unit, types.TimeFromUnits(v, u))
				if err != nil {
					t.Fatal(err)
				}
				if out[i] != want {
					t.Fatalf("EXTRACT(%s) of %d (%s): %d, want %d", unit, v, u, out[i], want)
				}
			}
		}
	}
}
