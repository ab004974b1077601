package infer

import (
	"bufio"
	"bytes"
	encjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// JSON value kinds seen at one place of the records.
const (
	jBool uint8 = 1 << iota
	jInt
	jFloat
	jString
	jObject
	jArray
)

// jnode accumulates the values found at one path of the records.
type jnode struct {
	name  string
	seen  int64 // values, nulls included
	nulls int64
	kinds uint8
	str   *textStats
	// objects
	fields []string
	sub    map[string]*jnode
	// arrays
	elem *jnode
	// integers
	overflow, bigInt bool
	minInt, maxInt   int64
	order            orderStats
	// example is the first value that is not null (an empty array or
	// object gives way to a later one), as JSON text, for the preview
	example string
}

func newNode(name string) *jnode { return &jnode{name: name} }

func (j *jnode) add(v any) {
	j.seen++
	if v != nil && (j.example == "" || j.example == "[]" || j.example == "{}") {
		j.example = exampleText(v)
	}
	switch x := v.(type) {
	case nil:
		j.nulls++
	case bool:
		j.kinds |= jBool
	case encjson.Number:
		s := x.String()
		if strings.ContainsAny(s, ".eE") {
			j.kinds |= jFloat
			return
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			j.overflow = true
			j.kinds |= jInt
			return
		}
		if j.kinds&jInt == 0 || n < j.minInt {
			j.minInt = n
		}
		if j.kinds&jInt == 0 || n > j.maxInt {
			j.maxInt = n
		}
		j.kinds |= jInt
		if n > 1<<53 || n < -(1<<53) {
			j.bigInt = true
		}
		j.order.add(n)
	case string:
		j.kinds |= jString
		if j.str == nil {
			j.str = newTextStats()
		}
		j.str.add(x)
	case *object:
		j.kinds |= jObject
		j.addObject(x)
	case []any:
		j.kinds |= jArray
		if j.elem == nil {
			j.elem = newNode("element")
		}
		for _, e := range x {
			j.elem.add(e)
		}
	}
}

// addObject records an object's fields in first-seen order.
func (j *jnode) addObject(obj *object) {
	if j.sub == nil {
		j.sub = map[string]*jnode{}
	}
	for i, k := range obj.keys {
		s, ok := j.sub[k]
		if !ok {
			s = newNode(k)
			j.sub[k] = s
			j.fields = append(j.fields, k)
		}
		s.add(obj.vals[i])
	}
}

// typ resolves the node to a type; iso reports ISO-8601 timestamps.
func (j *jnode) typ(iso bool) (*types.DataType, string) {
	switch j.kinds {
	case 0:
		return types.StringType(), "always null or missing: STRING"
	case jBool:
		return types.BooleanType(), ""
	case jInt:
		switch {
		case j.overflow:
			return types.DecimalType(38, 0), "integers beyond BIGINT: DECIMAL(38, 0)"
		case j.bigInt:
			return types.BigIntType(), "integers beyond 2^53: BIGINT keeps them exact (DOUBLE would round them)"
		}
		return types.BigIntType(), ""
	case jInt | jFloat, jFloat:
		return types.DoubleType(), ""
	case jString:
		s := j.str
		switch {
		case s.n-s.empty == 0:
			return types.StringType(), ""
		case s.dateOK:
			return types.DateType(), ""
		case s.tsOK && !iso:
			return types.TimestampType(s.tsPrec), ""
		case s.ltzOK && !iso:
			return types.TimestampLTZType(s.tsPrec), ""
		case s.isoOK && iso:
			return types.TimestampType(s.tsPrec), "ISO-8601 timestamps ('json.timestamp-format.standard' = 'ISO-8601')"
		case s.isoZOK && iso:
			// Flink's json format reads an ISO-8601 instant ('…Z') into
			// TIMESTAMP_LTZ only; TIMESTAMP(p) refuses the Z.
			return types.TimestampLTZType(max(s.tsPrec, 3)), "ISO-8601 instants in UTC ('…Z'): TIMESTAMP_LTZ ('json.timestamp-format.standard' = 'ISO-8601')"
		}
		return types.StringType(), ""
	case jObject:
		var fields []types.Field
		for _, k := range j.fields {
			t, _ := j.sub[k].typ(iso)
			fields = append(fields, types.NewField(k, t))
		}
		return types.RowType(fields...), ""
	case jArray:
		et := types.StringType()
		if j.elem != nil && j.elem.kinds != 0 {
			et, _ = j.elem.typ(iso)
		}
		return types.ArrayType(et), ""
	}
	if j.kinds&(jObject|jArray) != 0 {
		return types.StringType(), "mixes objects or arrays with other values: STRING holds the JSON text"
	}
	return types.StringType(), "mixes numbers, booleans or text: STRING holds the text"
}

// JSONLines infers a table for a JSON Lines file (one object per line).
func JSONLines(path string, opts Options) (*Result, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	r := &Result{Path: path, Format: "json", Name: TableName(path)}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in, complete, err := limited(f, opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	r.Complete = complete
	return r.jsonLines(in, opts)
}

// jsonLines infers r's columns from JSON Lines read from in.
func (r *Result) jsonLines(in io.Reader, opts Options) (*Result, error) {
	path := r.Path
	root := newNode("")
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var line, bad int64
	firstBad := ""
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\ufeff"))
		}
		if len(text) == 0 {
			continue
		}
		if line == 1 && text[0] == '[' {
			return nil, fmt.Errorf("%w: %s is one JSON array, not JSON Lines (one object per line); convert it first, for example with jq -c '.[]'", ErrUnsupported, path)
		}
		obj, err := decodeObject(text)
		if err != nil {
			bad++
			if firstBad == "" {
				firstBad = fmt.Sprintf("line %d: %v", line, err)
			}
			continue
		}
		r.Records++
		root.seen++
		root.kinds |= jObject
		root.addObject(obj)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %v", path, err)
	}
	if r.Records == 0 {
		if firstBad != "" {
			return nil, fmt.Errorf("%w: %s has no JSON object lines (%s)", ErrUnsupported, path, firstBad)
		}
		return nil, fmt.Errorf("%w: %s has no data", ErrUnsupported, path)
	}
	if r.data != nil {
		r.Options = []Option{{"format", "json"}}
	} else {
		r.Options = []Option{{"connector", "filesystem"}, {"path", path}, {"format", "json"}}
	}
	if bad > 0 {
		r.Skipped = bad
		r.setOption("json.ignore-parse-errors", "true")
		r.note("%d line(s) are not JSON objects (%s); with 'json.ignore-parse-errors' = 'true' they are skipped.", bad, firstBad)
	}
	// ISO-8601 timestamps need the format option, which then applies to
	// every timestamp column.
	iso := false
	sqlTS, isoTS := 0, 0
	for _, k := range root.fields {
		if s := root.sub[k].str; s != nil && root.sub[k].kinds == jString && s.n > s.empty {
			if s.tsOK || s.ltzOK {
				sqlTS++
			} else if s.isoOK || s.isoZOK {
				isoTS++
			}
		}
	}
	if isoTS > sqlTS {
		iso = true
		r.setOption("json.timestamp-format.standard", "ISO-8601")
	}
	for _, k := range root.fields {
		n := root.sub[k]
		c := Column{Name: k, Nulls: n.nulls + (r.Records - n.seen)}
		c.Type, c.Note = n.typ(iso)
		c.Example = n.example
		if n.str != nil && n.str.example != "" {
			c.Example = n.str.example
		}
		r.Columns = append(r.Columns, c)
	}
	if !r.Complete {
		r.note("Types were inferred from the first %d records (%d MB of the file).", r.Records, opts.MaxBytes>>20)
	}
	if err := r.verify(opts); err != nil {
		return nil, err
	}
	r.jsonRowtime(root)
	return r, nil
}

// object is a JSON object with its keys in written order (the last of
// duplicate keys wins, as in the json format).
// exampleText shows a decoded JSON value as compact JSON text (a string
// without its quotes), shortened for a preview cell.
func exampleText(v any) string {
	var b strings.Builder
	var write func(v any)
	write = func(v any) {
		if b.Len() > 200 {
			return
		}
		switch x := v.(type) {
		case nil:
			b.WriteString("null")
		case bool:
			b.WriteString(strconv.FormatBool(x))
		case encjson.Number:
			b.WriteString(x.String())
		case string:
			b.WriteString(strconv.Quote(x))
		case []any:
			b.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				write(e)
			}
			b.WriteByte(']')
		case *object:
			b.WriteByte('{')
			for i, k := range x.keys {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Quote(k) + ":")
				write(x.vals[i])
			}
			b.WriteByte('}')
		}
	}
	if s, ok := v.(string); ok {
		return s
	}
	write(v)
	if r := []rune(b.String()); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return b.String()
}

type object struct {
	keys []string
	vals []any
}

// decodeObject parses one line as a JSON object.
func decodeObject(text []byte) (*object, error) {
	dec := encjson.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON value on the line")
	}
	obj, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return obj, nil
}

// decodeValue reads one value, keeping the key order of objects.
func decodeValue(dec *encjson.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch x := t.(type) {
	case encjson.Delim:
		switch x {
		case '{':
			obj := &object{}
			index := map[string]int{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				if i, dup := index[k]; dup {
					obj.vals[i] = v
					continue
				}
				index[k] = len(obj.keys)
				obj.keys = append(obj.keys, k)
				obj.vals = append(obj.vals, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		case '[':
			var arr []any
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			if arr == nil {
				arr = []any{}
			}
			return arr, nil
		}
		return nil, fmt.Errorf("unexpected %v", x)
	}
	return t, nil
}

// decodeJSON reads the sample with the engine's json decoder.
func (r *Result) decodeJSON(names []string, ts []*types.DataType, opts Options, fn func(*types.Batch)) (int64, bool, error) {
	fo := map[string]string{}
	for _, o := range r.Options {
		if strings.HasPrefix(o.Key, "json.") {
			fo[strings.TrimPrefix(o.Key, "json.")] = o.Value
		}
	}
	po, err := json.ParseOptions(fo)
	if err != nil {
		return 0, false, err
	}
	dec, err := json.NewDecoder(po, names, ts)
	if err != nil {
		return 0, false, err
	}
	var in io.Reader
	complete := true
	if r.data != nil {
		in = bytes.NewReader(r.data)
	} else {
		f, err := os.Open(r.Path)
		if err != nil {
			return 0, false, err
		}
		defer f.Close()
		if in, complete, err = limited(f, opts.MaxBytes); err != nil {
			return 0, false, err
		}
	}
	br := dec.NewReader(in, r.Path, 0)
	var n int64
	for {
		b, err := br.Next()
		if err == io.EOF {
			return n, complete, nil
		}
		if err != nil {
			var de *connector.DataError
			if errors.As(err, &de) {
				return n, complete, de
			}
			return n, complete, err
		}
		n += int64(b.Len)
		if fn != nil {
			fn(b)
		}
	}
}

// jsonRowtime proposes a rowtime: a TIMESTAMP column, or an integer field
// (also nested) named like a time whose values are epoch milliseconds or
// seconds, through TO_TIMESTAMP_LTZ.
func (r *Result) jsonRowtime(root *jnode) {
	best, bestScore := -1, -1
	for i, c := range r.Columns {
		if c.Type.IsTimestamp() {
			if s := 1000 + timeNameScore(c.Name); s > bestScore {
				best, bestScore = i, s
			}
		}
	}
	if best >= 0 {
		c := r.Columns[best]
		rt := &Rowtime{Column: c.Name, Source: c.Name}
		if c.Type.Precision > 3 {
			rt.Column = r.freeName("rowtime")
			rt.Expr = "CAST(" + sql.QuoteIdentIfNeeded(c.Name) + " AS TIMESTAMP(3))"
		}
		r.finishRowtime(rt, &root.sub[c.Name].str.order)
		return
	}
	// epoch numbers
	var cand *jnode
	var candPath []string
	var walk func(n *jnode, path []string)
	walk = func(n *jnode, path []string) {
		for _, k := range n.fields {
			s := n.sub[k]
			p := append(append([]string(nil), path...), k)
			if s.kinds == jObject {
				walk(s, p)
				continue
			}
			if s.kinds != jInt || s.overflow || timeNameScore(k) == 0 || s.seen == s.nulls {
				continue
			}
			if epochUnit(s.minInt, s.maxInt) != 0 && (cand == nil || timeNameScore(k) > timeNameScore(cand.name)) {
				cand, candPath = s, p
			}
		}
	}
	walk(root, nil)
	if cand == nil {
		return
	}
	parts := make([]string, len(candPath))
	for i, p := range candPath {
		parts[i] = sql.QuoteIdentIfNeeded(p)
	}
	ref := strings.Join(parts, ".")
	prec := 3
	if epochUnit(cand.minInt, cand.maxInt) == 1 {
		prec = 0
	}
	if !hasFunction("TO_TIMESTAMP_LTZ") {
		r.note("%s holds epoch %s: a rowtime would be rowtime AS TO_TIMESTAMP_LTZ(%s, %d), but this engine has no TO_TIMESTAMP_LTZ yet.", strings.Join(candPath, "."), unitName(prec), ref, prec)
		return
	}
	rt := &Rowtime{Column: r.freeName("rowtime"), Expr: fmt.Sprintf("TO_TIMESTAMP_LTZ(%s, %d)", ref, prec), Source: strings.Join(candPath, ".")}
	rt.Note = fmt.Sprintf("%s holds epoch %s; the rowtime column converts them.", rt.Source, unitName(prec))
	o := cand.order
	if prec == 0 {
		// the statistics are in seconds: scale to milliseconds
		o.maxLateness *= 1000
	}
	r.finishRowtime(rt, &o)
}

// epochUnit recognises plausible epoch values (1990-2100): 3 for
// milliseconds, 1 for seconds, 0 for neither.
func epochUnit(lo, hi int64) int {
	const s1990, s2100 = 631_152_000, 4_102_444_800
	switch {
	case lo >= s1990*1000 && hi <= s2100*1000:
		return 3
	case lo >= s1990 && hi <= s2100:
		return 1
	}
	return 0
}

func unitName(prec int) string {
	if prec == 0 {
		return "seconds"
	}
	return "milliseconds"
}
