package expr

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/riffle-sql/riffle/engine/types"
)

// Encoding and decoding strings (Flink's sql_functions.yml, "string"
// section): TO_BASE64, FROM_BASE64, ENCODE, DECODE (charsets),
// URL_ENCODE, URL_DECODE, PARSE_URL, JSON_QUOTE, JSON_UNQUOTE. NULL
// arguments give NULL.

func init() {
	registerRowFn(rowFn{name: "TO_BASE64", category: "String", args: []argKind{kStrOrBin},
		sig: "TO_BASE64(string) -> STRING, base64 of the UTF-8 bytes", ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) { return base64.StdEncoding.EncodeToString([]byte(str(v[0]))), nil }})
	registerRowFn(rowFn{name: "FROM_BASE64", category: "String", args: []argKind{kStrOrBin},
		sig: "FROM_BASE64(string) -> STRING decoded from base64", ret: stringT, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			b, err := base64.StdEncoding.DecodeString(str(v[0]))
			if err != nil {
				return nil, &EvalError{Func: "FROM_BASE64", Msg: fmt.Sprintf("invalid base64 string '%s'", str(v[0]))}
			}
			return string(b), nil
		}})
	registerRowFn(rowFn{name: "ENCODE", category: "String", args: []argKind{kString, kString},
		sig:  "ENCODE(string1, string2) -> BYTES of string1 in charset string2 (US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16)",
		ret:  types.BytesType(),
		eval: func(_ *Ctx, v []any) (any, error) { return encodeCharset(v[0].(string), v[1].(string)) }})
	registerRowFn(rowFn{name: "DECODE", category: "String", args: []argKind{kBinary, kString},
		sig:  "DECODE(binary, string) -> STRING decoded from charset string (US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16)",
		ret:  stringT,
		eval: func(_ *Ctx, v []any) (any, error) { return decodeCharset(v[0].([]byte), v[1].(string)) }})
	registerRowFn(rowFn{name: "URL_ENCODE", category: "String", args: []argKind{kString},
		sig: "URL_ENCODE(string) -> STRING in application/x-www-form-urlencoded form (UTF-8)", ret: stringT, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) { return javaURLEncode(v[0].(string)), nil }})
	registerRowFn(rowFn{name: "URL_DECODE", category: "String", args: []argKind{kString},
		sig: "URL_DECODE(string) -> STRING decoded from application/x-www-form-urlencoded form; NULL when malformed", ret: stringT, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			s, err := url.QueryUnescape(v[0].(string))
			if err != nil {
				return nil, nil
			}
			return s, nil
		}})
	registerRowFn(rowFn{name: "PARSE_URL", category: "String", args: []argKind{kString, kString, kString}, min: 2, max: 3,
		sig: "PARSE_URL(string1, string2[, string3]) -> STRING, the HOST, PATH, QUERY, REF, PROTOCOL, AUTHORITY, FILE or USERINFO part (or a QUERY parameter)",
		ret: stringT, alwaysNull: true,
		eval: func(_ *Ctx, v []any) (any, error) {
			key := ""
			if len(v) == 3 {
				key = v[2].(string)
			}
			return parseURL(v[0].(string), v[1].(string), key, len(v) == 3), nil
		}})
	registerRowFn(rowFn{name: "JSON_QUOTE", category: "String", args: []argKind{kString},
		sig: "JSON_QUOTE(string) -> STRING quoted as a JSON string value", ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) { return jsonQuote(v[0].(string)), nil }})
	registerRowFn(rowFn{name: "JSON_UNQUOTE", category: "String", args: []argKind{kString},
		sig: "JSON_UNQUOTE(string) -> STRING unquoted from a JSON string value (unchanged when not one)", ret: stringT,
		eval: func(_ *Ctx, v []any) (any, error) { return jsonUnquote(v[0].(string)), nil }})
}

func charsetName(cs string) string { return strings.ToUpper(strings.TrimSpace(cs)) }

func encodeCharset(s, cs string) (any, error) {
	switch charsetName(cs) {
	case "UTF-8", "UTF8":
		return []byte(s), nil
	case "US-ASCII", "ASCII":
		out := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 127 {
				r = '?'
			}
			out = append(out, byte(r))
		}
		return out, nil
	case "ISO-8859-1", "LATIN1":
		out := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 255 {
				r = '?'
			}
			out = append(out, byte(r))
		}
		return out, nil
	case "UTF-16BE", "UTF-16LE", "UTF-16":
		u := utf16.Encode([]rune(s))
		var out []byte
		le := charsetName(cs) == "UTF-16LE"
		if charsetName(cs) == "UTF-16" {
			out = append(out, 0xFE, 0xFF) // Java writes a big-endian BOM
		}
		for _, c := range u {
			if le {
				out = append(out, byte(c), byte(c>>8))
			} else {
				out = append(out, byte(c>>8), byte(c))
			}
		}
		return out, nil
	}
	return nil, &EvalError{Func: "ENCODE", Msg: fmt.Sprintf("unsupported charset '%s'", cs)}
}

func decodeCharset(b []byte, cs string) (any, error) {
	switch charsetName(cs) {
	case "UTF-8", "UTF8":
		return strings.ToValidUTF8(string(b), "\uFFFD"), nil
	case "US-ASCII", "ASCII":
		var sb strings.Builder
		for _, c := range b {
			if c > 127 {
				sb.WriteRune('\uFFFD')
			} else {
				sb.WriteByte(c)
			}
		}
		return sb.String(), nil
	case "ISO-8859-1", "LATIN1":
		var sb strings.Builder
		for _, c := range b {
			sb.WriteRune(rune(c))
		}
		return sb.String(), nil
	case "UTF-16BE", "UTF-16LE", "UTF-16":
		le := charsetName(cs) == "UTF-16LE"
		if charsetName(cs) == "UTF-16" && len(b) >= 2 {
			switch {
			case b[0] == 0xFE && b[1] == 0xFF:
				b = b[2:]
			case b[0] == 0xFF && b[1] == 0xFE:
				b, le = b[2:], true
			}
		}
		u := make([]uint16, 0, len(b)/2)
		for i := 0; i+1 < len(b); i += 2 {
			if le {
				u = append(u, uint16(b[i])|uint16(b[i+1])<<8)
			} else {
				u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
			}
		}
		return string(utf16.Decode(u)), nil
	}
	return nil, &EvalError{Func: "DECODE", Msg: fmt.Sprintf("unsupported charset '%s'", cs)}
}

// javaURLEncode follows java.net.URLEncoder with UTF-8: letters, digits and
// ".-*_" stay, space becomes '+', everything else %XX (upper-case hex).
func javaURLEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == '*', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// parseURL follows Flink's PARSE_URL (java.net.URL parts).
func parseURL(raw, part, key string, withKey bool) any {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return nil
	}
	switch strings.ToUpper(part) {
	case "HOST":
		return nilIfEmpty(u.Hostname())
	case "PATH":
		return u.EscapedPath()
	case "QUERY":
		if withKey {
			for _, kv := range strings.Split(u.RawQuery, "&") {
				k, v, ok := strings.Cut(kv, "=")
				if ok && k == key {
					return v
				}
			}
			return nil
		}
		return nilIfEmpty(u.RawQuery)
	case "REF":
		return nilIfEmpty(u.EscapedFragment())
	case "PROTOCOL":
		return u.Scheme
	case "AUTHORITY":
		return nilIfEmpty(u.Host)
	case "FILE":
		if u.RawQuery != "" {
			return u.EscapedPath() + "?" + u.RawQuery
		}
		return u.EscapedPath()
	case "USERINFO":
		if u.User == nil {
			return nil
		}
		return u.User.String()
	}
	return nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// jsonQuote quotes s as a JSON string the way Flink's JSON_QUOTE does:
// '"', '\\', '/' and control characters are escaped, non-ASCII as \uXXXX.
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteString(`\/`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r > 0x7e {
				for _, u := range utf16.Encode([]rune{r}) {
					fmt.Fprintf(&b, `\u%04x`, u)
				}
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsonUnquote reverses jsonQuote for a value that starts and ends with '"'
// and is a valid JSON string literal; anything else is returned unchanged.
func jsonUnquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b strings.Builder
	in := s[1 : len(s)-1]
	var pending []uint16
	flush := func() {
		if len(pending) > 0 {
			b.WriteString(string(utf16.Decode(pending)))
			pending = nil
		}
	}
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c == '"' {
			return s
		}
		if c != '\\' {
			flush()
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(in) {
			return s
		}
		switch in[i] {
		case '"', '\\', '/':
			flush()
			b.WriteByte(in[i])
		case 'b':
			flush()
			b.WriteByte('\b')
		case 'f':
			flush()
			b.WriteByte('\f')
		case 'n':
			flush()
			b.WriteByte('\n')
		case 'r':
			flush()
			b.WriteByte('\r')
		case 't':
			flush()
			b.WriteByte('\t')
		case 'u':
			if i+5 > len(in) {
				return s
			}
			v, err := strconv.ParseUint(in[i+1:i+5], 16, 16)
			if err != nil {
				return s
			}
			pending = append(pending, uint16(v))
			i += 4
		default:
			return s
		}
	}
	flush()
	return b.String()
}
