package gateway

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jreader is a minimal pull parser over a JSON document, enough to decode
// fetched pages straight into typed rows without an intermediate tree.
// Methods record the first error in err and then do nothing.
type jreader struct {
	data []byte
	pos  int
	err  error
}

var errJSONEnd = errors.New("unexpected end of JSON")

func (r *jreader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("gateway: bad JSON at offset %d: %s", r.pos, fmt.Sprintf(format, args...))
	}
}

func (r *jreader) ws() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte (0 at the end).
func (r *jreader) peek() byte {
	r.ws()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// consume skips c if it is next; it reports whether it did.
func (r *jreader) consume(c byte) bool {
	if r.err == nil && r.peek() == c {
		r.pos++
		return true
	}
	return false
}

func (r *jreader) expect(c byte) {
	if r.err != nil {
		return
	}
	if !r.consume(c) {
		if r.pos >= len(r.data) {
			r.fail("%v, want %q", errJSONEnd, c)
			return
		}
		r.fail("found %q, want %q", r.data[r.pos], c)
	}
}

// null consumes a null literal if it is next.
func (r *jreader) null() bool {
	if r.err == nil && r.peek() == 'n' && r.pos+4 <= len(r.data) && string(r.data[r.pos:r.pos+4]) == "null" {
		r.pos += 4
		return true
	}
	return false
}

// boolean reads true or false.
func (r *jreader) boolean() bool {
	if r.err != nil {
		return false
	}
	switch r.peek() {
	case 't':
		if r.pos+4 <= len(r.data) && string(r.data[r.pos:r.pos+4]) == "true" {
			r.pos += 4
			return true
		}
	case 'f':
		if r.pos+5 <= len(r.data) && string(r.data[r.pos:r.pos+5]) == "false" {
			r.pos += 5
			return false
		}
	}
	r.fail("want a boolean")
	return false
}

// number returns the text of a number.
func (r *jreader) number() []byte {
	if r.err != nil {
		return nil
	}
	r.ws()
	start := r.pos
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			r.pos++
			continue
		}
		break
	}
	if r.pos == start {
		r.fail("want a number")
		return nil
	}
	return r.data[start:r.pos]
}

// str reads a string.
func (r *jreader) str() string {
	if r.err != nil {
		return ""
	}
	if r.peek() != '"' {
		r.fail("want a string")
		return ""
	}
	r.pos++
	start := r.pos
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		if c == '"' {
			s := string(r.data[start:r.pos])
			r.pos++
			return s
		}
		if c == '\\' {
			return r.strSlow(start)
		}
		r.pos++
	}
	r.fail("%v in a string", errJSONEnd)
	return ""
}

// strSlow finishes a string with escapes.
func (r *jreader) strSlow(start int) string {
	buf := append([]byte(nil), r.data[start:r.pos]...)
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == '"':
			r.pos++
			return string(buf)
		case c != '\\':
			buf = append(buf, c)
			r.pos++
			continue
		}
		if r.pos+1 >= len(r.data) {
			break
		}
		e := r.data[r.pos+1]
		r.pos += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			ru, ok := r.hex4()
			if !ok {
				r.fail("bad \\u escape")
				return ""
			}
			if utf16.IsSurrogate(ru) {
				if r.pos+1 < len(r.data) && r.data[r.pos] == '\\' && r.data[r.pos+1] == 'u' {
					r.pos += 2
					lo, ok := r.hex4()
					if ok {
						ru = utf16.DecodeRune(ru, lo)
					} else {
						ru = utf8.RuneError
					}
				} else {
					ru = utf8.RuneError
				}
			}
			buf = utf8.AppendRune(buf, ru)
		default:
			r.fail("bad escape \\%c", e)
			return ""
		}
	}
	r.fail("%v in a string", errJSONEnd)
	return ""
}

func (r *jreader) hex4() (rune, bool) {
	if r.pos+4 > len(r.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(r.data[r.pos:r.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	r.pos += 4
	return rune(v), true
}

// skip skips one value and returns its text.
func (r *jreader) skip() []byte {
	if r.err != nil {
		return nil
	}
	r.ws()
	start := r.pos
	switch r.peek() {
	case '{':
		r.object(func(string) { r.skip() })
	case '[':
		r.array(func() { r.skip() })
	case '"':
		r.str()
	case 't', 'f':
		r.boolean()
	case 'n':
		if !r.null() {
			r.fail("want null")
		}
	case 0:
		r.fail("%v", errJSONEnd)
	default:
		r.number()
	}
	return r.data[start:r.pos]
}

// object calls field for each key; field must read the value.
func (r *jreader) object(field func(key string)) {
	r.expect('{')
	if r.consume('}') {
		return
	}
	for r.err == nil {
		key := r.str()
		r.expect(':')
		if r.err != nil {
			return
		}
		field(key)
		if r.consume(',') {
			continue
		}
		r.expect('}')
		return
	}
}

// array calls elem for each element; elem must read it.
func (r *jreader) array(elem func()) {
	r.expect('[')
	if r.consume(']') {
		return
	}
	for r.err == nil {
		elem()
		if r.consume(',') {
			continue
		}
		r.expect(']')
		return
	}
}
