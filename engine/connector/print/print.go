// Package print implements Flink's 'print' connector: a sink that writes
// every row as a line "+I[1, Alice]" (the RowKind's short string and the
// values as Java's Row.toString prints them) to standard output.
//
// Options (Flink's PrintConnectorOptions):
//
//	print-identifier  none   a prefix: "id> +I[...]"
//	standard-error    false  write to standard error instead of standard output
//	sink.parallelism  none   the number of writers; with more than one, each line
//	                         is prefixed with the writer's 1-based index ("2> ",
//	                         "id:2> "), as Flink prefixes the subtask index
//
// The sink accepts every row kind. Lines go to Context.Stdout (the
// process's stdout unless the embedding program redirects it) or to
// Stderr; the lines of one batch are written with one Write call, and
// writers never interleave within a line.
package print

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Identifier is the 'connector' value of this connector.
const Identifier = "print"

// Option keys.
const (
	OptPrintIdentifier = "print-identifier"
	OptStandardError   = "standard-error"
	OptSinkParallelism = "sink.parallelism"
)

// Stderr is where 'standard-error' = 'true' writes (the process's standard
// error unless an embedding program replaces it).
var Stderr io.Writer = os.Stderr

// outMu serialises writes of all print sinks, so lines never interleave.
var outMu sync.Mutex

func init() { connector.Register(Factory{}) }

// Factory creates print sinks.
type Factory struct{}

// Identifier returns "print".
func (Factory) Identifier() string { return Identifier }

// Options lists the connector's options.
func (Factory) Options() []connector.Option {
	return []connector.Option{
		{Key: OptPrintIdentifier, Kind: "string", Description: "Message that identifies print and is prefixed to the output of the value."},
		{Key: OptStandardError, Default: "false", Kind: "bool", Description: "True, if the format should print to standard error instead of standard out."},
		{Key: OptSinkParallelism, Kind: "int", Description: "Defines the parallelism of the print sink operator."},
	}
}

// CreateSink validates the options and creates the sink.
func (f Factory) CreateSink(ctx *connector.Context) (connector.Sink, error) {
	if err := connector.ValidateOptions(ctx, f.Options()); err != nil {
		return nil, err
	}
	s := &Sink{id: ctx.Options[OptPrintIdentifier], out: ctx.Stdout, parallelism: ctx.Config.Parallelism()}
	if v, ok := ctx.Options[OptStandardError]; ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			s.out = Stderr
		case "false":
		default:
			return nil, fmt.Errorf("table %s: option '%s' must be true or false, but was: %s", ctx.Table, OptStandardError, v)
		}
	}
	if v, ok := ctx.Options[OptSinkParallelism]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("table %s: option '%s' must be a positive integer, but was: %s", ctx.Table, OptSinkParallelism, v)
		}
		s.parallelism = n
	}
	if s.out == nil {
		s.out = os.Stdout
	}
	return s, nil
}

// Sink prints rows.
type Sink struct {
	id          string
	out         io.Writer
	parallelism int
}

// Parallelism is the number of writers the sink expects (sink.parallelism,
// else parallelism.default); it decides the subtask prefix only when the
// planner does not say how many writers run (WriteSpec.Writers).
func (s *Sink) Parallelism() int { return s.parallelism }

// ChangelogMode accepts every row kind.
func (s *Sink) ChangelogMode(requested types.ChangelogMode) types.ChangelogMode { return requested }

// Open starts writer number index (0-based).
func (s *Sink) Open(ctx context.Context, spec connector.WriteSpec, index int) (connector.Writer, error) {
	// the subtask prefix when more than one writer runs (Flink's
	// PrintSinkOutputWriter); a planner that does not say how many uses
	// the sink's own count
	writers := spec.Writers
	if writers <= 0 {
		writers = s.parallelism
	}
	prefix := s.id
	if writers > 1 {
		if prefix != "" {
			prefix += ":"
		}
		prefix += strconv.Itoa(index + 1)
	}
	if prefix != "" {
		prefix += "> "
	}
	return &writer{out: s.out, prefix: prefix, types: spec.Types}, nil
}

type writer struct {
	out    io.Writer
	prefix string
	types  []*types.DataType
	buf    []byte
}

// Write prints one line per row.
func (w *writer) Write(ctx context.Context, b *types.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w.buf = w.buf[:0]
	for i := 0; i < b.Len; i++ {
		w.buf = append(w.buf, w.prefix...)
		w.buf = AppendRow(w.buf, b, i, w.types)
		w.buf = append(w.buf, '\n')
	}
	outMu.Lock()
	defer outMu.Unlock()
	_, err := w.out.Write(w.buf)
	return err
}

// AppendRow appends row i of b as Flink's Row.toString prints it:
// "+I[1, Alice, null]".
func AppendRow(dst []byte, b *types.Batch, i int, ts []*types.DataType) []byte {
	dst = append(dst, b.Kind(i).ShortString()...)
	dst = append(dst, '[')
	for c, col := range b.Cols {
		if c > 0 {
			dst = append(dst, ", "...)
		}
		var t *types.DataType
		if c < len(ts) {
			t = ts[c]
		} else if ft, err := types.FromArrow(col.DataType()); err == nil {
			t = ft
		}
		dst = append(dst, types.FormatValueAs(types.ValueAt(col, i, t), t)...)
	}
	return append(dst, ']')
}

func (w *writer) Commit() error { return nil }
func (w *writer) Abort()        {}
