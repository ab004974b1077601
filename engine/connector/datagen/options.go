// Package datagen implements Flink's 'datagen' connector: a source that
// generates random or sequential rows at a configured rate.
//
// Options (Flink's DataGenConnectorOptions):
//
//	rows-per-second        10000  total rate; split evenly among the source's splits
//	number-of-rows         none   total rows (split among splits); unbounded when absent
//	scan.parallelism       none   number of splits (default: parallelism.default)
//	fields.<f>.kind        random 'random' or 'sequence'
//	fields.<f>.min / max   type range  bounds of random numbers (inclusive)
//	fields.<f>.max-past    0      random TIMESTAMP/TIMESTAMP_LTZ: now minus up to this duration
//	fields.<f>.length      100    string/bytes length (VARCHAR(n)/VARBINARY(n): n; CHAR(n)/BINARY(n)
//	                              are always n); ARRAY/MAP/MULTISET size (3)
//	fields.<f>.var-len     false  random length in [1, length] for VARCHAR/STRING/VARBINARY/BYTES
//	fields.<f>.start / end none   inclusive range of a sequence (required for kind 'sequence')
//	fields.<f>.null-rate   0      proportion of NULL values
//
// Nested generators are configured with dotted paths, as in Flink:
// fields.<row>.<subfield>.<option>, fields.<array>.element.<option>,
// fields.<map>.key.<option> and fields.<map>.value.<option>.
//
// Values follow Flink's generators: random strings are lowercase hex,
// random DATE and TIME are the machine's current date and time of day,
// random timestamps are "now minus a random past" with millisecond
// precision, MULTISET counts are random in [0, 10], and a sequence of a
// string type yields the numbers' decimal text. Defaults of min and max are
// the type's range (FLOAT/DOUBLE: Java's MIN_VALUE..MAX_VALUE, i.e.
// (0, max]; DECIMAL: clamped to the precision; INTERVAL YEAR TO MONTH:
// 0..120000 months; INTERVAL DAY TO SECOND: limited to what a Go
// time.Duration holds).
//
// A sequence field makes the source end by itself: when the first
// sequence is exhausted (Flink's DataGeneratorSource stops when any
// generator has no next value), or after number-of-rows. Only
// number-of-rows makes it bounded to the planner, though (Flink's
// DataGenTableSource: isBounded = number-of-rows is set): batch mode
// refuses a table without it, sequence fields or not, with Flink's
// "Querying an unbounded table '…' in batch mode is not allowed." Each split
// generates a contiguous part of every sequence range and an equal share
// of number-of-rows and of the rate, as Flink's subtasks do.
//
// Rate limiting uses a token bucket that releases whole batches (about
// 50 ms of rows, at most 8192); Next waits for the bucket and returns
// ctx.Err() as soon as the context is cancelled.
//
// Checkpoints: a reader's position (position.go) holds the rows its split
// has emitted, the next offset of each sequence field and the state of its
// random number generator; a reader reopened there (OpenAt) continues the
// same sequences, row count, rate and random stream, seeded or not (Flink
// restores the sequences and the row count and draws fresh random values).
package datagen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Identifier is the 'connector' value of this connector.
const Identifier = "datagen"

// Option keys.
const (
	OptRowsPerSecond   = "rows-per-second"
	OptNumberOfRows    = "number-of-rows"
	OptScanParallelism = "scan.parallelism"
	DefaultRowsPerSec  = 10000
	KindRandom         = "random"
	KindSequence       = "sequence"
)

// Per-field option names (fields.<path>.<name>).
const (
	fKind     = "kind"
	fMin      = "min"
	fMax      = "max"
	fMaxPast  = "max-past"
	fLength   = "length"
	fVarLen   = "var-len"
	fStart    = "start"
	fEnd      = "end"
	fNullRate = "null-rate"
)

var fieldOptionNames = []string{fKind, fMin, fMax, fMaxPast, fLength, fVarLen, fStart, fEnd, fNullRate}

// fieldOpts are the options of one generator path.
type fieldOpts map[string]string

// spec is a validated generator configuration.
type spec struct {
	table       string
	rate        int64
	rows        int64 // -1: unbounded
	parallelism int
	names       []string
	types       []*types.DataType
	fields      map[string]fieldOpts // path -> options
}

func parseSpec(ctx *connector.Context) (*spec, error) {
	s := &spec{table: ctx.Table, rate: DefaultRowsPerSec, rows: -1, names: ctx.PhysicalNames(), types: ctx.PhysicalTypes(), fields: map[string]fieldOpts{}}
	s.parallelism = ctx.Config.Parallelism()
	var unknown []string
	for k, v := range ctx.Options {
		switch k {
		case "connector":
		case OptRowsPerSecond:
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("table %s: '%s' must be a positive number, but was: %s", ctx.Table, OptRowsPerSecond, v)
			}
			s.rate = n
		case OptNumberOfRows:
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("table %s: '%s' must be a non-negative number, but was: %s", ctx.Table, OptNumberOfRows, v)
			}
			s.rows = n
		case OptScanParallelism:
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("table %s: '%s' must be a positive number, but was: %s", ctx.Table, OptScanParallelism, v)
			}
			s.parallelism = n
		default:
			if !strings.HasPrefix(k, "fields.") {
				unknown = append(unknown, k)
				continue
			}
			rest := strings.TrimPrefix(k, "fields.")
			i := strings.LastIndexByte(rest, '.')
			if i <= 0 {
				unknown = append(unknown, k)
				continue
			}
			path, name := rest[:i], rest[i+1:]
			if s.fields[path] == nil {
				s.fields[path] = fieldOpts{}
			}
			s.fields[path][name] = v
		}
	}
	if s.parallelism < 1 {
		s.parallelism = 1
	}
	// Every fields.* option must name a generator path and an option the
	// path's type understands.
	paths := map[string]*types.DataType{}
	for i, n := range s.names {
		collectPaths(n, s.types[i], paths)
	}
	for path, opts := range s.fields {
		t, ok := paths[path]
		for name := range opts {
			if !ok || !allowed(t, name, opts[fKind] == KindSequence) {
				unknown = append(unknown, "fields."+path+"."+name)
			}
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		// a field's options as its kind (random unless declared) takes
		// them, all sorted, in FactoryUtil.validateUnconsumedKeys' layout
		supported := []string{"connector", OptNumberOfRows, OptRowsPerSecond, OptScanParallelism}
		for p, t := range paths {
			seq := s.fields[p][fKind] == KindSequence
			for _, n := range fieldOptionNames {
				if allowed(t, n, seq) && (seq || n != fStart && n != fEnd) {
					supported = append(supported, "fields."+p+"."+n)
				}
			}
		}
		sort.Strings(supported)
		return nil, fmt.Errorf("table %s: Unsupported options found for 'datagen'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s", ctx.Table, strings.Join(unknown, "\n"), strings.Join(supported, "\n"))
	}
	return s, nil
}

// collectPaths lists the generator paths of a column type.
func collectPaths(path string, t *types.DataType, out map[string]*types.DataType) {
	out[path] = t
	switch t.Root {
	case types.ArrayRoot, types.MultisetRoot:
		collectPaths(path+".element", t.Elem, out)
	case types.MapRoot:
		collectPaths(path+".key", t.Key, out)
		collectPaths(path+".value", t.Value, out)
	case types.RowRoot:
		for _, f := range t.Fields {
			collectPaths(path+"."+f.Name, f.Type, out)
		}
	}
}

func sequenceable(t *types.DataType) bool {
	return t.IsNumeric() || t.IsString()
}

// allowed reports whether option name applies to a generator of type t.
func allowed(t *types.DataType, name string, sequence bool) bool {
	switch name {
	case fKind:
		return true
	case fNullRate:
		return true
	case fStart, fEnd:
		return sequenceable(t)
	}
	if sequence {
		return false
	}
	switch name {
	case fMin, fMax:
		return t.IsNumeric() || t.IsInterval()
	case fMaxPast:
		return t.IsTimestamp()
	case fLength:
		return t.IsString() || t.IsBinary() || t.Root == types.ArrayRoot || t.Root == types.MapRoot || t.Root == types.MultisetRoot
	case fVarLen:
		return (t.Root == types.VarChar || t.Root == types.VarBinary)
	}
	return false
}

func (o fieldOpts) float(table, path, name string, def float64) (float64, error) {
	v, ok := o[name]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, fmt.Errorf("table %s: option 'fields.%s.%s' must be a number, but was: %s", table, path, name, v)
	}
	return f, nil
}

func (o fieldOpts) int(table, path, name string, def int64) (int64, error) {
	v, ok := o[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("table %s: option 'fields.%s.%s' must be an integer, but was: %s", table, path, name, v)
	}
	return n, nil
}

func (o fieldOpts) duration(table, path, name string) (time.Duration, error) {
	v, ok := o[name]
	if !ok {
		return 0, nil
	}
	d, err := config.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("table %s: option 'fields.%s.%s' must be a duration such as '10 s', but was: %s", table, path, name, v)
	}
	return d, nil
}

func (o fieldOpts) bool(table, path, name string) (bool, error) {
	v, ok := o[name]
	if !ok {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("table %s: option 'fields.%s.%s' must be true or false, but was: %s", table, path, name, v)
}
