package expr

import "time"

// FormatJavaDate formats t with a Java (SimpleDateFormat) pattern such as
// "yyyy-MM-dd", as DATE_FORMAT does; an unknown pattern letter is an
// error. Materialized tables format their periodic refresh partitions
// with it ('partition.fields.#.date-formatter').
func FormatJavaDate(t time.Time, pattern string) (string, error) { return formatJavaDate(t, pattern) }
