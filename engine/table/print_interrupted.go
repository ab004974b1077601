package table

// PrintInterruptedError is PrintTableau's error when a streaming query's
// rows end in an error (a failed or cancelled job, Ctrl+C in the SQL
// client) after Rows of them were printed: the SQL client reports
// "Query terminated, received a total of N rows" from it, as Flink's
// CliTableauResultView does. Err is the rows' error; errors.Is and
// errors.As see through to it, and Error is its message.
type PrintInterruptedError struct {
	Rows int
	Err  error
}

func (e *PrintInterruptedError) Error() string { return e.Err.Error() }

// Unwrap returns the rows' error.
func (e *PrintInterruptedError) Unwrap() error { return e.Err }
