package main

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// canonical renders a row for comparison: values as text, doubles to 9
// significant digits (the engines sum in different orders), integers of
// every width alike, timestamps in UTC to the nanosecond.
func canonical(vals []any) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteByte('|')
		}
		switch x := v.(type) {
		case nil:
			b.WriteString("NULL")
		case float64:
			b.WriteString(strconv.FormatFloat(x, 'g', 9, 64))
		case float32:
			b.WriteString(strconv.FormatFloat(float64(x), 'g', 9, 64))
		case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64:
			fmt.Fprintf(&b, "%d", x)
		case *big.Int:
			b.WriteString(x.String())
		case time.Time:
			b.WriteString(x.UTC().Format("2006-01-02 15:04:05.999999999"))
		case []byte:
			b.Write(x)
		default:
			fmt.Fprint(&b, x)
		}
	}
	return b.String()
}

// firstDiff describes the first difference of an answer from the
// reference answer, both sorted canonical rows ("" when they are equal).
func firstDiff(a, ref []string, refName string) string {
	n := min(len(a), len(ref))
	for i := 0; i < n; i++ {
		if a[i] != ref[i] {
			return fmt.Sprintf("row %d of the sorted answers: %q against %s's %q (%d rows against %d)", i+1, a[i], refName, ref[i], len(a), len(ref))
		}
	}
	if len(a) != len(ref) {
		return fmt.Sprintf("%d rows against %s's %d", len(a), refName, len(ref))
	}
	return ""
}
