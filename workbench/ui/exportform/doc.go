// Package exportform is the form of the workbench's Export dialog and
// of Run to CSV file: the target file, the format (CSV, JSON Lines,
// Parquet) and the CSV options, read back as results.CSVOptions and as
// the persistence.ExportSettings kept for the next export.
//
// It knows nothing of results being exported or of the workbench: the
// workbench (package ui) builds a Form with New from the saved settings,
// shows Content in a dialog, and on confirm reads Options and Path.
package exportform
