package filesystem

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector/internal/textconv"
	"github.com/riffle-sql/riffle/engine/types"
)

// escapePathName escapes a partition key or value for a path segment as
// Flink's (Hive's) PartitionPathUtils.escapePathName does: control
// characters and "#%'*/:=?\{[]^ and DEL become %XX.
func escapePathName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if needsEscape(c) {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func needsEscape(c byte) bool {
	if c < 0x20 || c == 0x7F {
		return true
	}
	switch c {
	case '"', '#', '%', '\'', '*', '/', ':', '=', '?', '\\', '{', '[', ']', '^':
		return true
	}
	return false
}

// unescapePathName reverses escapePathName.
func unescapePathName(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// partitionSpec reads the k=v directories of a file relative to root; ok
// is false unless they are exactly the partition keys, in order.
func partitionSpec(root, file string, keys []string) (map[string]string, bool) {
	rel, err := filepath.Rel(root, filepath.Dir(file))
	if err != nil || rel == "." {
		return nil, len(keys) == 0
	}
	segs := strings.Split(filepath.ToSlash(rel), "/")
	if len(segs) != len(keys) {
		return nil, false
	}
	out := map[string]string{}
	for i, seg := range segs {
		k, v, found := strings.Cut(seg, "=")
		if !found || unescapePathName(k) != keys[i] {
			return nil, false
		}
		out[keys[i]] = unescapePathName(v)
	}
	return out, true
}

// partitionValue converts a partition directory value back to a value of
// type t (Flink's RowPartitionComputer.restorePartValueFromType); the
// default partition name is NULL.
func partitionValue(s string, t *types.DataType, defaultName string) (any, error) {
	if s == defaultName {
		return nil, nil
	}
	b := []byte(s)
	bad := fmt.Errorf("partition value %q is not a valid %s", s, t.StringNoNull())
	switch t.Root {
	case types.Char, types.VarChar:
		return s, nil
	case types.Boolean:
		v, ok := textconv.ParseBool(b)
		if !ok {
			return nil, bad
		}
		return v, nil
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		bits := map[types.TypeRoot]int{types.TinyInt: 8, types.SmallInt: 16, types.Integer: 32, types.BigInt: 64}[t.Root]
		v, ok := textconv.ParseInt(b, bits)
		if !ok {
			return nil, bad
		}
		switch t.Root {
		case types.TinyInt:
			return int8(v), nil
		case types.SmallInt:
			return int16(v), nil
		case types.Integer:
			return int32(v), nil
		}
		return v, nil
	case types.Float, types.Double:
		v, ok := textconv.ParseFloat(b, 64)
		if !ok {
			return nil, bad
		}
		if t.Root == types.Float {
			return float32(v), nil
		}
		return v, nil
	case types.DecimalRoot:
		d, err := types.ParseDecimal(s)
		if err != nil {
			return nil, bad
		}
		return d, nil
	case types.DateRoot:
		d, ok := textconv.ParseDateISO(b)
		if !ok {
			return nil, bad
		}
		return types.Date(d), nil
	case types.TimestampRoot:
		// LocalDateTime.toString / LocalDateTime.parse: ISO with 'T'.
		sec, nanos, ok := textconv.ParseTimestamp(b, 'T', false, true)
		if !ok {
			if sec, nanos, ok = textconv.ParseTimestamp(b, ' ', false, true); !ok {
				return nil, bad
			}
		}
		return timeOf(sec, int64(nanos)), nil
	}
	return nil, fmt.Errorf("type %s is not supported as a partition column", t)
}

func supportedPartitionType(t *types.DataType) bool {
	switch t.Root {
	case types.Char, types.VarChar, types.Boolean, types.TinyInt, types.SmallInt, types.Integer, types.BigInt,
		types.Float, types.Double, types.DecimalRoot, types.DateRoot, types.TimestampRoot:
		return true
	}
	return false
}

// partitionString renders a partition value as Flink's
// RowDataPartitionComputer does (Java toString of the external value);
// NULL and the empty string become the default partition name.
func partitionString(v any, t *types.DataType, defaultName string) string {
	if v == nil {
		return defaultName
	}
	s := types.FormatValueAs(v, t)
	if s == "" {
		return defaultName
	}
	return s
}
