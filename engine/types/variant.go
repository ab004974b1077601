package types

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Variant is the Go value of a VARIANT (Flink 2.1's semi-structured type):
// one JSON document's object, array or scalar, held in a compact binary
// encoding. Numbers have one form each and an object keeps its keys in
// the order they first appear, so two variants are equal exactly when
// their encodings are: as in Flink, whose VARIANT equality compares the
// binary values, {"a":1} equals { "a" : 1 } but not {"a":1.0} (a decimal)
// nor {"b":2,"a":1} against {"a":1,"b":2} (another key order). A Variant
// is a Go string and so comparable and usable as a map key; it prints
// (String) with each object's keys sorted, as Flink prints.
//
// Encoding: every value starts with a tag byte.
//
//	'N'                          JSON null (a value, not SQL NULL)
//	'F', 'T'                     false, true
//	'I' varint                   an integer that fits a BIGINT (zig-zag varint)
//	'M' uvarint len, text        an exact decimal number (at most 38 digits),
//	                             its plain text without trailing zeros
//	'D' 8 bytes                  a DOUBLE (big-endian IEEE 754 bits)
//	'S' uvarint len, bytes       a string (UTF-8)
//	'A' uvarint n, n × (uvarint len, value)
//	                             an array
//	'O' uvarint n, n × (uvarint klen, key, uvarint len, value)
//	                             an object, keys unique, in order of first appearance
//
// Each element and member is prefixed by its length, so an access by index
// or key (Variant.Index, Variant.Field) skips the others without decoding
// them. In Arrow a VARIANT column is a Binary column of these bytes.
type Variant string

// Variant kinds, as Variant.Kind returns them.
const (
	VariantNull   = 'N'
	VariantFalse  = 'F'
	VariantTrue   = 'T'
	VariantInt    = 'I'
	VariantDec    = 'M'
	VariantDouble = 'D'
	VariantString = 'S'
	VariantArray  = 'A'
	VariantObject = 'O'
)

// Kind is the tag of the variant's top-level value (VariantNull, ...).
func (v Variant) Kind() byte {
	if len(v) == 0 {
		return VariantNull
	}
	return v[0]
}

// ParseJSONVariant parses a JSON text (RFC 8259) into a Variant, as
// Flink's PARSE_JSON does: integers that fit a BIGINT stay integers, other
// numbers without an exponent that fit DECIMAL(38) are exact decimals, the
// rest are DOUBLEs. As Flink (Jackson) does, the first JSON value is read
// and whatever follows it is ignored ('1 2' is 1). A key repeated in one
// object is an error (VARIANT_DUPLICATE_KEY) unless allowDuplicateKeys,
// when the last value wins at the first one's place. A syntax error reads
// as Jackson's and ends with the line and column of the bad character:
// "... at [Source: UNKNOWN; line: 1, column: 2]".
func ParseJSONVariant(text string, allowDuplicateKeys bool) (Variant, error) {
	p := &variantParser{src: text, dup: allowDuplicateKeys}
	p.skipSpace()
	if p.pos >= len(p.src) {
		return "", p.errorf("Unexpected null token")
	}
	out, err := p.value(nil, 0)
	if err != nil {
		return "", err
	}
	return Variant(out), nil
}

// ErrVariantDuplicateKey is PARSE_JSON's error for a key repeated in one
// object (Flink's message).
var ErrVariantDuplicateKey = errors.New("VARIANT_DUPLICATE_KEY")

// expectedValue ends Jackson's messages for a missing JSON value.
const expectedValue = "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')"

// maxVariantDepth bounds the nesting of arrays and objects.
const maxVariantDepth = 1000

type variantParser struct {
	src string
	pos int
	dup bool
}

// errorf is a parse error at the current position (1-based line and column).
func (p *variantParser) errorf(format string, args ...any) error {
	line, col := lineCol(p.src, p.pos)
	return fmt.Errorf("%s\n at [Source: UNKNOWN; line: %d, column: %d]", fmt.Sprintf(format, args...), line, col)
}

func (p *variantParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *variantParser) value(out []byte, depth int) ([]byte, error) {
	if depth > maxVariantDepth {
		return nil, p.errorf("Document nesting depth exceeds the maximum allowed (%d)", maxVariantDepth)
	}
	if p.pos >= len(p.src) {
		return nil, p.errorf("Unexpected end-of-input: expected a value")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(out, depth)
	case c == '[':
		return p.array(out, depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return appendVariantString(out, s), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(out)
	case isTokenChar(c):
		start := p.pos
		for p.pos < len(p.src) && isTokenChar(p.src[p.pos]) {
			p.pos++
		}
		switch tok := p.src[start:p.pos]; tok {
		case "true":
			return append(out, VariantTrue), nil
		case "false":
			return append(out, VariantFalse), nil
		case "null":
			return append(out, VariantNull), nil
		case "NaN", "Infinity":
			return nil, p.errorf("Non-standard token '%s': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow", tok)
		default:
			return nil, p.errorf("Unrecognized token '%s': was expecting %s", tok, expectedValue)
		}
	}
	return nil, p.unexpected("expected a valid value " + expectedValue)
}

// isTokenChar reports the characters of a bare word (true, null, a typo).
func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// unexpected is Jackson's error for the character at p.pos.
func (p *variantParser) unexpected(what string) error {
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return p.errorf("Unexpected character ('%c' (code %d)): %s", r, r, what)
}

// eof is Jackson's error for input that ends inside an array or object
// opened at byte offset open.
func (p *variantParser) eof(kind string, open int) error {
	line, col := lineCol(p.src, open)
	return p.errorf("Unexpected end-of-input: expected close marker for %s (start marker at line: %d, column: %d)", kind, line, col)
}

// lineCol is the 1-based line and column of byte offset pos.
func lineCol(src string, pos int) (int, int) {
	line, col := 1, 1
	for _, r := range src[:min(pos, len(src))] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func (p *variantParser) object(out []byte, depth int) ([]byte, error) {
	open := p.pos
	p.pos++ // {
	type member struct {
		key string
		val []byte
	}
	var members []member
	p.skipSpace()
	if p.pos >= len(p.src) {
		return nil, p.eof("Object", open)
	}
	if p.src[p.pos] == '}' {
		p.pos++
	} else {
		for {
			p.skipSpace()
			if p.pos >= len(p.src) {
				return nil, p.eof("Object", open)
			}
			if p.src[p.pos] != '"' {
				return nil, p.unexpected("was expecting double-quote to start field name")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.skipSpace()
			if p.pos >= len(p.src) {
				return nil, p.eof("Object", open)
			}
			if p.src[p.pos] != ':' {
				return nil, p.unexpected("was expecting a colon to separate field name and value")
			}
			p.pos++
			p.skipSpace()
			if p.pos >= len(p.src) {
				return nil, p.eof("Object", open)
			}
			v, err := p.value(nil, depth+1)
			if err != nil {
				return nil, err
			}
			members = append(members, member{k, v})
			p.skipSpace()
			if p.pos >= len(p.src) {
				return nil, p.eof("Object", open)
			}
			if p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.src[p.pos] == '}' {
				p.pos++
				break
			}
			return nil, p.unexpected("was expecting comma to separate Object entries")
		}
	}
	// a repeated key: an error, or its last value at its first place
	kept := members[:0]
	if len(members) > 1 {
		seen := make(map[string]int, len(members))
		for _, m := range members {
			if at, ok := seen[m.key]; ok {
				if !p.dup {
					return nil, ErrVariantDuplicateKey
				}
				kept[at].val = m.val
				continue
			}
			seen[m.key] = len(kept)
			kept = append(kept, m)
		}
	} else {
		kept = members
	}
	out = append(out, VariantObject)
	out = binary.AppendUvarint(out, uint64(len(kept)))
	for _, m := range kept {
		out = binary.AppendUvarint(out, uint64(len(m.key)))
		out = append(out, m.key...)
		out = binary.AppendUvarint(out, uint64(len(m.val)))
		out = append(out, m.val...)
	}
	return out, nil
}

func (p *variantParser) array(out []byte, depth int) ([]byte, error) {
	open := p.pos
	p.pos++ // [
	var elems [][]byte
	p.skipSpace()
	if p.pos >= len(p.src) {
		return nil, p.eof("Array", open)
	}
	if p.src[p.pos] == ']' {
		p.pos++
	} else {
		for {
			p.skipSpace()
			if p.pos >= len(p.src) {
				return nil, p.eof("Array", open)
			}
			v, err := p.value(nil, depth+1)
			if err != nil {
				return nil, err
			}
			elems = append(elems, v)
			p.skipSpace()
			if p.pos >= len(p.src) {
				return nil, p.eof("Array", open)
			}
			if p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.src[p.pos] == ']' {
				p.pos++
				break
			}
			return nil, p.unexpected("was expecting comma to separate Array entries")
		}
	}
	out = append(out, VariantArray)
	out = binary.AppendUvarint(out, uint64(len(elems)))
	for _, e := range elems {
		out = binary.AppendUvarint(out, uint64(len(e)))
		out = append(out, e...)
	}
	return out, nil
}

// str reads a JSON string at p.pos (at its opening quote).
func (p *variantParser) str() (string, error) {
	start := p.pos
	p.pos++
	for i := p.pos; i < len(p.src); i++ {
		c := p.src[i]
		if c == '"' {
			raw := p.src[start : i+1]
			p.pos = i + 1
			if !strings.Contains(raw, `\`) {
				if !utf8.ValidString(raw) {
					p.pos = start
					return "", p.errorf("Invalid UTF-8 in a string value")
				}
				return raw[1 : len(raw)-1], nil
			}
			var s string
			if err := json.Unmarshal([]byte(raw), &s); err != nil {
				p.pos = start
				return "", p.errorf("Unrecognized character escape in a string value")
			}
			return s, nil
		}
		if c == '\\' {
			i++
			continue
		}
		if c < 0x20 {
			p.pos = i
			return "", p.errorf("Illegal unquoted character ((CTRL-CHAR, code %d)): has to be escaped using backslash to be included in string value", c)
		}
	}
	p.pos = len(p.src)
	return "", p.errorf("Unexpected end-of-input: was expecting closing quote for a string value")
}

// number reads a JSON number.
func (p *variantParser) number(out []byte) ([]byte, error) {
	start := p.pos
	i := p.pos
	if p.src[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intStart := i
	if digits() == 0 {
		p.pos = i
		if i >= len(p.src) {
			return nil, p.errorf("Unexpected end-of-input in numeric value")
		}
		return nil, p.unexpected("in numeric value: expected digit (0-9) to follow minus sign, for valid numeric value")
	}
	if p.src[intStart] == '0' && i-intStart > 1 {
		p.pos = intStart + 1
		return nil, p.errorf("Invalid numeric value: Leading zeroes not allowed")
	}
	frac, exp := false, false
	if i < len(p.src) && p.src[i] == '.' {
		i++
		frac = true
		if digits() == 0 {
			p.pos = i
			return nil, p.errorf("Unexpected character in numeric value: Decimal point not followed by a digit")
		}
	}
	if i < len(p.src) && (p.src[i] == 'e' || p.src[i] == 'E') {
		i++
		exp = true
		if i < len(p.src) && (p.src[i] == '+' || p.src[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.pos = i
			return nil, p.errorf("Unexpected character in numeric value: Exponent indicator not followed by a digit")
		}
	}
	text := p.src[start:i]
	p.pos = i
	if !frac && !exp {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return appendVariantInt(out, n), nil
		}
	}
	if !exp {
		if d, ok := variantDecimalText(text); ok {
			out = append(out, VariantDec)
			out = binary.AppendUvarint(out, uint64(len(d)))
			return append(out, d...), nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		p.pos = start
		return nil, p.errorf("Invalid numeric value")
	}
	return appendVariantDouble(out, f), nil
}

// variantDecimalText is the plain text of a decimal number without
// exponent, trailing fractional zeros removed, when it has at most 38
// digits of precision and scale.
func variantDecimalText(text string) (string, bool) {
	neg := strings.HasPrefix(text, "-")
	text = strings.TrimPrefix(text, "-")
	ip, fp, _ := strings.Cut(text, ".")
	if len(fp) > MaxDecimalPrecision {
		return "", false
	}
	ip = strings.TrimLeft(ip, "0")
	digits := strings.TrimLeft(ip+fp, "0")
	if len(digits) > MaxDecimalPrecision {
		return "", false
	}
	fp = strings.TrimRight(fp, "0")
	if ip == "" {
		ip = "0"
	}
	s := ip
	if fp != "" {
		s += "." + fp
	}
	if neg && s != "0" {
		s = "-" + s
	}
	return s, true
}

func appendVariantInt(out []byte, n int64) []byte {
	out = append(out, VariantInt)
	return binary.AppendVarint(out, n)
}

func appendVariantDouble(out []byte, f float64) []byte {
	out = append(out, VariantDouble)
	return binary.BigEndian.AppendUint64(out, math.Float64bits(f))
}

func appendVariantString(out []byte, s string) []byte {
	out = append(out, VariantString)
	out = binary.AppendUvarint(out, uint64(len(s)))
	return append(out, s...)
}

// uvarint reads an unsigned varint at s[0:]; n is its length (0 when bad).
func uvarintAt(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		b := s[i]
		if b < 0x80 {
			return x | uint64(b)<<shift, i + 1
		}
		x |= uint64(b&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

// chunk reads a length-prefixed piece at s[0:] and returns it and the rest.
func chunk(s string) (string, string, bool) {
	n, w := uvarintAt(s)
	if w == 0 || uint64(len(s)-w) < n {
		return "", "", false
	}
	return s[w : w+int(n)], s[w+int(n):], true
}

// Index is element i (1-based, as Flink's v[i]) of an array; ok is false
// when v is not an array or i is out of range (Flink: NULL).
func (v Variant) Index(i int64) (Variant, bool) {
	if v.Kind() != VariantArray || i < 1 {
		return "", false
	}
	n, w := uvarintAt(string(v[1:]))
	if w == 0 || uint64(i) > n {
		return "", false
	}
	rest := string(v[1+w:])
	for j := int64(1); ; j++ {
		e, r, ok := chunk(rest)
		if !ok {
			return "", false
		}
		if j == i {
			return Variant(e), true
		}
		rest = r
	}
}

// Field is the value of key k of an object (case-sensitive); ok is false
// when v is not an object or has no such key (Flink: NULL).
func (v Variant) Field(k string) (Variant, bool) {
	var found Variant
	ok := false
	v.eachMember(func(key string, val Variant) bool {
		if key == k {
			found, ok = val, true
			return false
		}
		return true
	})
	return found, ok
}

// eachMember calls f for every member of an object until f returns false.
func (v Variant) eachMember(f func(string, Variant) bool) {
	if v.Kind() != VariantObject {
		return
	}
	n, w := uvarintAt(string(v[1:]))
	rest := string(v[1+w:])
	for j := uint64(0); j < n; j++ {
		k, r, ok := chunk(rest)
		if !ok {
			return
		}
		val, r2, ok := chunk(r)
		if !ok {
			return
		}
		if !f(k, Variant(val)) {
			return
		}
		rest = r2
	}
}

// eachElem calls f for every element of an array.
func (v Variant) eachElem(f func(Variant)) {
	if v.Kind() != VariantArray {
		return
	}
	n, w := uvarintAt(string(v[1:]))
	rest := string(v[1+w:])
	for j := uint64(0); j < n; j++ {
		e, r, ok := chunk(rest)
		if !ok {
			return
		}
		f(Variant(e))
		rest = r
	}
}

// String renders the variant as JSON text, as Flink prints a VARIANT:
// no spaces, object keys in sorted order, decimals without trailing
// zeros, doubles as Java's Double.toString ("1000.0", "1.0E-5").
func (v Variant) String() string {
	var b strings.Builder
	v.writeJSON(&b, true)
	return b.String()
}

// OrderedJSON is the variant as JSON text that ParseJSONVariant turns back
// into v exactly: each object's keys in their stored order, every DOUBLE
// with an exponent (1000.0E0, 1E400 for Infinity) and every decimal with a
// decimal point (100.0), so that each number keeps its kind. Riffle's SQL
// Gateway sends VARIANT values in this form.
func (v Variant) OrderedJSON() string {
	var b strings.Builder
	v.writeJSON(&b, false)
	return b.String()
}

// writeJSON writes v as JSON: for printing (sorted) or as OrderedJSON.
func (v Variant) writeJSON(b *strings.Builder, sorted bool) {
	switch v.Kind() {
	case VariantNull:
		b.WriteString("null")
	case VariantFalse:
		b.WriteString("false")
	case VariantTrue:
		b.WriteString("true")
	case VariantInt:
		n, _ := binary.Varint([]byte(v[1:]))
		b.WriteString(strconv.FormatInt(n, 10))
	case VariantDec:
		d, _, _ := chunk(string(v[1:]))
		b.WriteString(d)
		if !sorted && !strings.Contains(d, ".") {
			b.WriteString(".0")
		}
	case VariantDouble:
		f := v.double()
		switch {
		case sorted:
			b.WriteString(variantDoubleText(f))
		case math.IsInf(f, 1):
			b.WriteString("1E400")
		case math.IsInf(f, -1):
			b.WriteString("-1E400")
		default:
			t := strconv.FormatFloat(f, 'g', -1, 64)
			if !strings.ContainsAny(t, "eE") {
				t += "E0"
			}
			b.WriteString(t)
		}
	case VariantString:
		s, _, _ := chunk(string(v[1:]))
		writeJSONString(b, s)
	case VariantArray:
		b.WriteByte('[')
		first := true
		v.eachElem(func(e Variant) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			e.writeJSON(b, sorted)
		})
		b.WriteByte(']')
	case VariantObject:
		type member struct {
			k string
			v Variant
		}
		var ms []member
		v.eachMember(func(k string, val Variant) bool {
			ms = append(ms, member{k, val})
			return true
		})
		if sorted {
			sort.SliceStable(ms, func(i, j int) bool { return ms[i].k < ms[j].k })
		}
		b.WriteByte('{')
		for i, m := range ms {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, m.k)
			b.WriteByte(':')
			m.v.writeJSON(b, sorted)
		}
		b.WriteByte('}')
	}
}

func (v Variant) double() float64 {
	if len(v) < 9 {
		return 0
	}
	return math.Float64frombits(binary.BigEndian.Uint64([]byte(v[1:9])))
}

// variantDoubleText is a DOUBLE inside a VARIANT's JSON text.
func variantDoubleText(f float64) string {
	return FormatDoubleJava(f) // Flink too writes Infinity unquoted
}

// writeJSONString writes s as a JSON string: quotes, backslashes and
// control characters escaped, everything else as is.
func writeJSONString(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// MarshalJSON writes the variant as its JSON value (keys in stored order).
func (v Variant) MarshalJSON() ([]byte, error) { return []byte(v.OrderedJSON()), nil }

// Valid reports whether v is a well-formed encoding (for bytes read from
// outside, e.g. an Arrow file or a checkpoint).
func (v Variant) Valid() bool {
	rest, ok := skipVariant(string(v))
	return ok && rest == ""
}

// skipVariant checks one encoded value at s[0:] and returns what follows.
func skipVariant(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	switch s[0] {
	case VariantNull, VariantFalse, VariantTrue:
		return s[1:], true
	case VariantInt:
		_, w := binary.Varint([]byte(s[1:min(len(s), 11)]))
		if w <= 0 {
			return "", false
		}
		return s[1+w:], true
	case VariantDouble:
		if len(s) < 9 {
			return "", false
		}
		return s[9:], true
	case VariantDec, VariantString:
		_, rest, ok := chunk(s[1:])
		return rest, ok
	case VariantArray, VariantObject:
		n, w := uvarintAt(s[1:])
		if w == 0 {
			return "", false
		}
		rest := s[1+w:]
		for j := uint64(0); j < n; j++ {
			if s[0] == VariantObject {
				var ok bool
				if _, rest, ok = chunk(rest); !ok {
					return "", false
				}
			}
			e, r, ok := chunk(rest)
			if !ok {
				return "", false
			}
			if tail, ok := skipVariant(e); !ok || tail != "" {
				return "", false
			}
			rest = r
		}
		return rest, true
	}
	return "", false
}

// VariantFromBytes checks an encoding read from outside and returns it as
// a Variant.
func VariantFromBytes(b []byte) (Variant, error) {
	v := Variant(b)
	if !v.Valid() {
		return "", fmt.Errorf("invalid VARIANT encoding")
	}
	return v, nil
}

// VariantFromGo builds a Variant from a value decoded by encoding/json
// with UseNumber (map[string]any, []any, string, json.Number, bool, nil).
func VariantFromGo(x any) (Variant, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return "", err
	}
	return ParseJSONVariant(buf.String(), false)
}

// VariantDecimal returns the exact decimal of a VariantDec value.
func (v Variant) VariantDecimal() (Decimal, bool) {
	if v.Kind() != VariantDec {
		return Decimal{}, false
	}
	d, _, _ := chunk(string(v[1:]))
	x, err := ParseDecimal(d)
	return x, err == nil
}
