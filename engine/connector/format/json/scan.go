package json

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// span is one JSON value within the current line: bytes [start, end).
// kind is '"' (string), '0' (number), 't', 'f', 'n' (null), '{' or '['.
// esc is set on a string with a backslash escape (its content needs
// unescaping; without one it is the raw bytes between the quotes).
type span struct {
	start, end int
	kind       byte
	esc        bool
}

// syntaxError is malformed JSON at a byte offset of the line.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

func synErr(off int, format string, args ...any) error {
	return &syntaxError{off: off, msg: fmt.Sprintf(format, args...)}
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

// scanValue scans (and validates) the value starting at b[i] (no leading
// whitespace) and returns its span.
func scanValue(b []byte, i int, depth int) (span, error) {
	if i >= len(b) {
		return span{}, synErr(i, "unexpected end of line, expected a value")
	}
	if depth > 1000 {
		return span{}, synErr(i, "nesting too deep")
	}
	switch c := b[i]; c {
	case '"':
		end, esc, err := scanString(b, i)
		return span{start: i, end: end, kind: '"', esc: esc}, err
	case '{':
		j := skipWS(b, i+1)
		if j < len(b) && b[j] == '}' {
			return span{start: i, end: j + 1, kind: '{'}, nil
		}
		for {
			if j >= len(b) || b[j] != '"' {
				return span{}, synErr(j, "expected a field name in double quotes")
			}
			end, _, err := scanString(b, j)
			if err != nil {
				return span{}, err
			}
			j = skipWS(b, end)
			if j >= len(b) || b[j] != ':' {
				return span{}, synErr(j, "expected ':' after a field name")
			}
			j = skipWS(b, j+1)
			v, err := scanValue(b, j, depth+1)
			if err != nil {
				return span{}, err
			}
			j = skipWS(b, v.end)
			if j < len(b) && b[j] == ',' {
				j = skipWS(b, j+1)
				continue
			}
			if j < len(b) && b[j] == '}' {
				return span{start: i, end: j + 1, kind: '{'}, nil
			}
			return span{}, synErr(j, "expected ',' or '}' in an object")
		}
	case '[':
		j := skipWS(b, i+1)
		if j < len(b) && b[j] == ']' {
			return span{start: i, end: j + 1, kind: '['}, nil
		}
		for {
			v, err := scanValue(b, j, depth+1)
			if err != nil {
				return span{}, err
			}
			j = skipWS(b, v.end)
			if j < len(b) && b[j] == ',' {
				j = skipWS(b, j+1)
				continue
			}
			if j < len(b) && b[j] == ']' {
				return span{start: i, end: j + 1, kind: '['}, nil
			}
			return span{}, synErr(j, "expected ',' or ']' in an array")
		}
	case 't':
		return literal(b, i, "true", 't')
	case 'f':
		return literal(b, i, "false", 'f')
	case 'n':
		return literal(b, i, "null", 'n')
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			end, err := scanNumber(b, i)
			return span{start: i, end: end, kind: '0'}, err
		}
		if c == 'N' || c == 'I' {
			return span{}, synErr(i, "non-standard number (NaN/Infinity) is not allowed")
		}
		return span{}, synErr(i, "unexpected character %q", c)
	}
}

func literal(b []byte, i int, lit string, kind byte) (span, error) {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return span{start: i, end: i + len(lit), kind: kind}, nil
	}
	return span{}, synErr(i, "invalid literal, expected %s", lit)
}

// SWAR constants: a byte of ones, a byte of high bits.
const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// stringStops has the high bit set in every byte of x that ends a run of
// plain string bytes: '"', '\\' or a control character (< 0x20). The
// lowest set byte is exact (higher ones may be false positives).
func stringStops(x uint64) uint64 {
	q := x ^ (swarOnes * '"')
	bs := x ^ (swarOnes * '\\')
	return ((q-swarOnes)&^q | (bs-swarOnes)&^bs | (x-swarOnes*0x20)&^x) & swarHigh
}

// scanString returns the offset after the closing quote of the string at
// b[i], and whether it has a backslash escape.
func scanString(b []byte, i int) (end int, esc bool, err error) {
	j := i + 1
	for j < len(b) {
		// skip plain bytes eight at a time
		for j+8 <= len(b) {
			if m := stringStops(binary.LittleEndian.Uint64(b[j:])); m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
			j += 8
		}
		if j >= len(b) {
			break
		}
		c := b[j]
		switch {
		case c == '"':
			return j + 1, esc, nil
		case c == '\\':
			if j+1 >= len(b) {
				return 0, false, synErr(j, "unterminated string")
			}
			esc = true
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(b) || !isHex4(b[j+2:j+6]) {
					return 0, false, synErr(j, "invalid \\u escape")
				}
				j += 6
			default:
				return 0, false, synErr(j, "invalid escape \\%c", b[j+1])
			}
		case c < 0x20:
			return 0, false, synErr(j, "control character 0x%02X in a string", c)
		default:
			j++
		}
	}
	return 0, false, synErr(i, "unterminated string")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) {
			return false
		}
	}
	return true
}

func scanNumber(b []byte, i int) (int, error) {
	j := i
	if b[j] == '-' {
		j++
	}
	if j >= len(b) || b[j] < '0' || b[j] > '9' {
		return 0, synErr(i, "invalid number")
	}
	if b[j] == '0' {
		j++
	} else {
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
	}
	if j < len(b) && b[j] == '.' {
		j++
		s := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == s {
			return 0, synErr(i, "invalid number")
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		s := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == s {
			return 0, synErr(i, "invalid number")
		}
	}
	if j < len(b) {
		if c := b[j]; !(isWS(c) || c == ',' || c == '}' || c == ']') {
			return 0, synErr(j, "invalid number")
		}
	}
	return j, nil
}

var errBadEscape = errors.New("invalid escape")

// unescape appends the decoded content of a validated JSON string literal
// (without its quotes) to dst.
func unescape(dst, s []byte) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			// copy the run of plain bytes up to the next escape at once
			k := bytes.IndexByte(s[i:], '\\')
			if k < 0 {
				return append(dst, s[i:]...), nil
			}
			dst = append(dst, s[i:i+k]...)
			i += k
		}
		i++
		switch s[i] {
		case '"', '\\', '/':
			dst = append(dst, s[i])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hexRune(s[i+1 : i+5])
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					r2 := hexRune(s[i+3 : i+7])
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		default:
			return dst, errBadEscape
		}
	}
	return dst, nil
}

func hexRune(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// compact appends a validated JSON value without insignificant whitespace
// (Jackson's JsonNode.toString for objects and arrays).
func compact(dst, b []byte) []byte {
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			dst = append(dst, c)
			if c == '\\' {
				i++
				dst = append(dst, b[i])
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		if isWS(c) {
			continue
		}
		if c == '"' {
			inStr = true
		}
		dst = append(dst, c)
	}
	return dst
}
