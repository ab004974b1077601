package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/riffle-sql/riffle/engine/types"
)

// A small JSON model for the SQL/JSON functions: values are nil (null),
// bool, jsonNumber, string, []any (array) and *jsonObject (object with
// its key order). Serialisation is compact, as Jackson's default
// ObjectMapper writes it (Flink's SqlJsonUtils): {"a":1,"b":[true,null]}.

type jsonNumber string

type jsonObject struct {
	keys []string
	vals []any
}

func (o *jsonObject) get(k string) (any, bool) {
	for i, x := range o.keys {
		if x == k {
			return o.vals[i], true
		}
	}
	return nil, false
}

type jsonParser struct {
	s   string
	pos int
}

func parseJSON(s string) (any, error) {
	p := &jsonParser{s: s}
	p.ws()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.pos != len(p.s) {
		return nil, fmt.Errorf("unexpected text after JSON value at %d", p.pos)
	}
	return v, nil
}

func (p *jsonParser) ws() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *jsonParser) errf(f string, a ...any) error {
	return fmt.Errorf("invalid JSON at position %d: %s", p.pos, fmt.Sprintf(f, a...))
}

func (p *jsonParser) value() (any, error) {
	if p.pos >= len(p.s) {
		return nil, p.errf("unexpected end")
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		p.pos++
		o := &jsonObject{}
		p.ws()
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			p.pos++
			return o, nil
		}
		for {
			p.ws()
			if p.pos >= len(p.s) || p.s[p.pos] != '"' {
				return nil, p.errf("expected a key")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.ws()
			if p.pos >= len(p.s) || p.s[p.pos] != ':' {
				return nil, p.errf("expected ':'")
			}
			p.pos++
			p.ws()
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, k)
			o.vals = append(o.vals, v)
			p.ws()
			if p.pos < len(p.s) && p.s[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.s) && p.s[p.pos] == '}' {
				p.pos++
				return o, nil
			}
			return nil, p.errf("expected ',' or '}'")
		}
	case c == '[':
		p.pos++
		arr := []any{}
		p.ws()
		if p.pos < len(p.s) && p.s[p.pos] == ']' {
			p.pos++
			return arr, nil
		}
		for {
			p.ws()
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
			p.ws()
			if p.pos < len(p.s) && p.s[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.s) && p.s[p.pos] == ']' {
				p.pos++
				return arr, nil
			}
			return nil, p.errf("expected ',' or ']'")
		}
	case c == '"':
		return p.str()
	case c == 't' && strings.HasPrefix(p.s[p.pos:], "true"):
		p.pos += 4
		return true, nil
	case c == 'f' && strings.HasPrefix(p.s[p.pos:], "false"):
		p.pos += 5
		return false, nil
	case c == 'n' && strings.HasPrefix(p.s[p.pos:], "null"):
		p.pos += 4
		return nil, nil
	case c == '-' || c >= '0' && c <= '9':
		start := p.pos
		if c == '-' {
			p.pos++
		}
		for p.pos < len(p.s) && strings.IndexByte("0123456789.eE+-", p.s[p.pos]) >= 0 {
			p.pos++
		}
		txt := p.s[start:p.pos]
		if _, err := strconv.ParseFloat(txt, 64); err != nil {
			return nil, p.errf("bad number %q", txt)
		}
		return jsonNumber(txt), nil
	}
	return nil, p.errf("unexpected character %q", p.s[p.pos])
}

func (p *jsonParser) str() (string, error) {
	p.pos++ // opening quote
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c == '\\':
			p.pos++
			if p.pos >= len(p.s) {
				return "", p.errf("bad escape")
			}
			e := p.s[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if p.pos+4 > len(p.s) {
					return "", p.errf("bad unicode escape")
				}
				v, err := strconv.ParseUint(p.s[p.pos:p.pos+4], 16, 16)
				if err != nil {
					return "", p.errf("bad unicode escape")
				}
				p.pos += 4
				r := rune(v)
				if utf16.IsSurrogate(r) && p.pos+6 <= len(p.s) && p.s[p.pos] == '\\' && p.s[p.pos+1] == 'u' {
					if v2, err := strconv.ParseUint(p.s[p.pos+2:p.pos+6], 16, 16); err == nil {
						r = utf16.DecodeRune(r, rune(v2))
						p.pos += 6
					}
				}
				b.WriteRune(r)
			default:
				return "", p.errf("bad escape \\%c", e)
			}
		case c < 0x20:
			return "", p.errf("control character in string")
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	return "", p.errf("unterminated string")
}

// writeJSON serialises a JSON model value compactly.
func writeJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case jsonNumber:
		b.WriteString(normalizeJSONNumber(string(x)))
	case string:
		writeJSONString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	case *jsonObject:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			writeJSON(b, x.vals[i])
		}
		b.WriteByte('}')
	case jsonRaw:
		b.WriteString(string(x))
	}
}

// jsonRaw is already-serialised JSON text (the result of a nested JSON
// constructor call).
type jsonRaw string

func jsonText(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

// normalizeJSONNumber prints a number as Jackson does after reading it:
// integers unchanged, others as Java's Double.toString.
func normalizeJSONNumber(s string) string {
	if !strings.ContainsAny(s, ".eE") {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return types.FormatDoubleJava(f)
}

func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04X`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// ---- JSON path (the subset SQL/JSON path expressions use in Flink)

type jsonStep struct {
	key      string
	wildcard bool // .* or [*]
	index    []int
	isIndex  bool
}

type jsonPath struct {
	strict bool
	steps  []jsonStep
}

func parseJSONPath(s string) (*jsonPath, error) {
	p := &jsonPath{}
	t := strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(t, "strict "), strings.HasPrefix(t, "strict$"):
		p.strict = true
		t = strings.TrimSpace(t[6:])
	case strings.HasPrefix(t, "lax "), strings.HasPrefix(t, "lax$"):
		t = strings.TrimSpace(t[3:])
	}
	if !strings.HasPrefix(t, "$") {
		return nil, fmt.Errorf("Illegal jsonpath spec: %s, format of the spec should be: '<lax|strict> ${expr}'", s)
	}
	t = t[1:]
	for len(t) > 0 {
		switch {
		case strings.HasPrefix(t, ".*"):
			p.steps = append(p.steps, jsonStep{wildcard: true})
			t = t[2:]
		case strings.HasPrefix(t, ".["):
			t = t[1:]
		case t[0] == '.':
			j := 1
			for j < len(t) && t[j] != '.' && t[j] != '[' {
				j++
			}
			if j == 1 {
				return nil, fmt.Errorf("invalid JSON path %q", s)
			}
			p.steps = append(p.steps, jsonStep{key: t[1:j]})
			t = t[j:]
		case t[0] == '[':
			end := strings.IndexByte(t, ']')
			if end < 0 {
				return nil, fmt.Errorf("invalid JSON path %q", s)
			}
			inner := strings.TrimSpace(t[1:end])
			t = t[end+1:]
			switch {
			case inner == "*":
				p.steps = append(p.steps, jsonStep{wildcard: true})
			case len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"'):
				p.steps = append(p.steps, jsonStep{key: inner[1 : len(inner)-1]})
			default:
				st := jsonStep{isIndex: true}
				for _, part := range strings.Split(inner, ",") {
					i, err := strconv.Atoi(strings.TrimSpace(part))
					if err != nil {
						return nil, fmt.Errorf("invalid JSON path %q", s)
					}
					st.index = append(st.index, i)
				}
				p.steps = append(p.steps, st)
			}
		default:
			return nil, fmt.Errorf("invalid JSON path %q", s)
		}
	}
	return p, nil
}

// errJSONPath reports a path that does not exist in strict mode.
type errJSONPath struct{ msg string }

func (e *errJSONPath) Error() string { return e.msg }

// eval applies the path. It returns the matched values; multi reports a
// path with wildcards or index lists (whose result is a list). In lax mode
// a missing member yields no value; in strict mode it is an error.
func (p *jsonPath) eval(doc any) (vals []any, multi bool, err error) {
	cur := []any{doc}
	for _, st := range p.steps {
		var next []any
		for _, v := range cur {
			switch {
			case st.wildcard:
				multi = true
				switch x := v.(type) {
				case []any:
					next = append(next, x...)
				case *jsonObject:
					next = append(next, x.vals...)
				default:
					if p.strict {
						return nil, multi, &errJSONPath{"wildcard on a non-container value"}
					}
				}
			case st.isIndex:
				if len(st.index) > 1 {
					multi = true
				}
				arr, ok := v.([]any)
				if !ok {
					if p.strict {
						return nil, multi, &errJSONPath{"array index on a non-array value"}
					}
					continue
				}
				for _, i := range st.index {
					if i < 0 || i >= len(arr) {
						if p.strict {
							return nil, multi, &errJSONPath{fmt.Sprintf("array index %d out of bounds", i)}
						}
						continue
					}
					next = append(next, arr[i])
				}
			default:
				o, ok := v.(*jsonObject)
				if !ok {
					if arr, isArr := v.([]any); isArr && !p.strict {
						// lax mode unwraps arrays for member access
						for _, e := range arr {
							if eo, ok := e.(*jsonObject); ok {
								if x, found := eo.get(st.key); found {
									next = append(next, x)
								}
							}
						}
						multi = true
						continue
					}
					if p.strict {
						return nil, multi, &errJSONPath{fmt.Sprintf("No results for path: $['%s']", st.key)}
					}
					continue
				}
				x, found := o.get(st.key)
				if !found {
					if p.strict {
						return nil, multi, &errJSONPath{fmt.Sprintf("No results for path: $['%s']", st.key)}
					}
					continue
				}
				next = append(next, x)
			}
		}
		cur = next
	}
	return cur, multi, nil
}

// sqlToJSON converts a SQL value of type t to the JSON model (JSON_STRING,
// JSON_OBJECT and JSON_ARRAY values).
func sqlToJSON(v any, t *types.DataType, zone *time.Location) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		return x
	case string:
		return x
	case jsonRaw:
		return x
	case int8, int16, int32, int64:
		i, _ := toInt64(x)
		return jsonNumber(strconv.FormatInt(i, 10))
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return types.FormatFloatJava(x)
		}
		return jsonNumber(types.FormatFloatJava(x))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return types.FormatDoubleJava(x)
		}
		return jsonNumber(types.FormatDoubleJava(x))
	case types.Decimal:
		return jsonRaw(x.JavaString())
	case []byte:
		return jsonRaw(`"` + encodeBase64(x) + `"`)
	case []any:
		var et *types.DataType
		if t != nil {
			et = t.Elem
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = sqlToJSON(e, et, zone)
		}
		return out
	case *types.Map:
		o := &jsonObject{}
		var kt, vt *types.DataType
		if t != nil {
			kt, vt = t.Key, t.Value
			if t.Root == types.MultisetRoot {
				kt, vt = t.Elem, types.IntType()
			}
		}
		type kv struct {
			k string
			v any
		}
		var kvs []kv
		for i, k := range x.Keys {
			ks := FormatSQL(k, kt, zone)
			if s, ok := k.(string); ok {
				ks = s
			}
			kvs = append(kvs, kv{ks, sqlToJSON(x.Values[i], vt, zone)})
		}
		for _, e := range kvs {
			o.keys = append(o.keys, e.k)
			o.vals = append(o.vals, e.v)
		}
		return o
	case *types.Row:
		o := &jsonObject{}
		for i, fv := range x.Values {
			name := fmt.Sprintf("f%d", i)
			var ft *types.DataType
			if t != nil && i < len(t.Fields) {
				name, ft = t.Fields[i].Name, t.Fields[i].Type
			} else if i < len(x.Names) && x.Names[i] != "" {
				name = x.Names[i]
			}
			o.keys = append(o.keys, name)
			o.vals = append(o.vals, sqlToJSON(fv, ft, zone))
		}
		return o
	case time.Time:
		if t != nil && t.Root == types.TimestampLTZRoot {
			return x.UTC().Format("2006-01-02T15:04:05.999999999Z")
		}
		return strings.Replace(types.FormatValue(x), " ", "T", 1)
	}
	return FormatSQL(v, t, zone)
}

func encodeBase64(b []byte) string {
	const enc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var sb strings.Builder
	for i := 0; i < len(b); i += 3 {
		var n uint32
		rem := len(b) - i
		n = uint32(b[i]) << 16
		if rem > 1 {
			n |= uint32(b[i+1]) << 8
		}
		if rem > 2 {
			n |= uint32(b[i+2])
		}
		sb.WriteByte(enc[n>>18&63])
		sb.WriteByte(enc[n>>12&63])
		if rem > 1 {
			sb.WriteByte(enc[n>>6&63])
		} else {
			sb.WriteByte('=')
		}
		if rem > 2 {
			sb.WriteByte(enc[n&63])
		} else {
			sb.WriteByte('=')
		}
	}
	return sb.String()
}

// JSONArrayText serialises values of type t as a JSON array (JSON_ARRAYAGG);
// raw marks values that already are JSON text.
func JSONArrayText(vals []any, t *types.DataType, raw bool) string {
	arr := make([]any, len(vals))
	for i, v := range vals {
		if s, ok := v.(string); ok && raw {
			arr[i] = jsonRaw(s)
			continue
		}
		arr[i] = sqlToJSON(v, t, time.UTC)
	}
	return jsonText(arr)
}

// JSONObjectText serialises key/value pairs (values of type t) as a JSON
// object (JSON_OBJECTAGG); raw marks values that already are JSON text.
func JSONObjectText(keys []string, vals []any, t *types.DataType, raw bool) string {
	o := &jsonObject{keys: keys, vals: make([]any, len(vals))}
	for i, v := range vals {
		if s, ok := v.(string); ok && raw {
			o.vals[i] = jsonRaw(s)
			continue
		}
		o.vals[i] = sqlToJSON(v, t, time.UTC)
	}
	return jsonText(o)
}
