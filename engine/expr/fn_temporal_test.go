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
		// time-ordered runs across hour and day boundaries, before and
		// after the epoch, rising, repeating and falling
		for _, from := range []int64{-2 * 3600 * ups, 86_400*ups - 90*ups, 1_700_000_000 * ups} {
			v := from
			for i := 0; i < 400; i++ {
				vals = append(vals, v)
				v += r.Int63n(60 * ups)
			}
			for i := 0; i < 100; i++ {
				vals = append(vals, v, v)
				v -= r.Int63n(120 * ups)
			}
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

// EXTRACT(HOUR) of 8,192 TIMESTAMP(3) values a call, time-ordered (runs
// of rows in one hour, as the bench's flights) and in random order.
func BenchmarkExtractHour(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	ordered, random := make([]int64, 8192), make([]int64, 8192)
	v := int64(978_307_200_000) // 2001-01-01
	for i := range ordered {
		ordered[i] = v
		v += r.Int63n(20_000)
		random[i] = 978_307_200_000 + r.Int63n(365*86_400_000)
	}
	out := make([]int64, 8192)
	for _, c := range []struct {
		name string
		vals []int64
	}{{"ordered", ordered}, {"random", random}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				extractTimeOfDay("HOUR", 1000, c.vals, out)
			}
		})
	}
}
