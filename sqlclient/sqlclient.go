// Package sqlclient is Riffle's headless SQL client (`riffle sql`), the
// counterpart of Flink's SQL Client in embedded mode: it runs statements
// from -e, -f or standard input and prints results as tableau, CSV or JSON.
//
// This is a stub: Run reports that the client is not implemented yet.
package sqlclient

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Runtime modes (Flink's execution.runtime-mode).
const (
	ModeStreaming = "streaming"
	ModeBatch     = "batch"
)

// Output formats.
const (
	FormatTableau = "tableau"
	FormatCSV     = "csv"
	FormatJSON    = "json"
)

// Options are the command-line options of `riffle sql`.
type Options struct {
	Mode       string // ModeStreaming (default) or ModeBatch
	Format     string // FormatTableau (default), FormatCSV or FormatJSON
	InitFile   string // --init: statements run first, printing nothing on success
	File       string // -f: a script file
	Statements string // -e: statements given on the command line
	Endpoint   string // --endpoint: a SQL Gateway URL; empty = the embedded engine
}

// ErrNotImplemented is returned until the client exists.
var ErrNotImplemented = errors.New("riffle sql: not implemented yet")

// Validate checks the option values.
func (o Options) Validate() error {
	switch o.Mode {
	case "", ModeStreaming, ModeBatch:
	default:
		return fmt.Errorf("invalid --mode %q: want streaming or batch", o.Mode)
	}
	switch o.Format {
	case "", FormatTableau, FormatCSV, FormatJSON:
	default:
		return fmt.Errorf("invalid --format %q: want tableau, csv or json", o.Format)
	}
	if o.File != "" && o.Statements != "" {
		return errors.New("-f and -e cannot be used together")
	}
	return nil
}

// Run executes the statements and returns the process exit status: 0 when
// every statement succeeded, non-zero otherwise (the error goes to stderr).
func Run(ctx context.Context, opts Options, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := opts.Validate(); err != nil {
		fmt.Fprintln(stderr, "[ERROR]", err)
		return 2
	}
	fmt.Fprintln(stderr, "[ERROR]", ErrNotImplemented)
	return 1
}
