package sql

import (
	"strconv"
	"strings"
)

// UnescapeUnicode resolves the escapes of a U&'...' string body (SQL
// standard, as Calcite reads them): \XXXX (4 hex digits), \+XXXXXX (6 hex
// digits) and \\ for a backslash; anything else is kept as written.
func UnescapeUnicode(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			switch {
			case i+1 < len(s) && s[i+1] == '\\':
				out.WriteByte('\\')
				i++
				continue
			case i+7 < len(s) && s[i+1] == '+':
				if v, err := strconv.ParseUint(s[i+2:i+8], 16, 32); err == nil && v <= 0x10FFFF {
					out.WriteRune(rune(v))
					i += 7
					continue
				}
			case i+4 < len(s):
				if v, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
					out.WriteRune(rune(v))
					i += 4
					continue
				}
			}
		}
		out.WriteByte(s[i])
	}
	return out.String()
}
