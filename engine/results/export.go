package results

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// ExportFormat is the kind of file an export writes.
type ExportFormat uint8

// The export formats.
const (
	// FormatCSV writes CSV text (CSVOptions).
	FormatCSV ExportFormat = iota
	// FormatJSONLines writes one JSON object per row and line, keys the
	// column names in order, values as Flink's json format writes them
	// (the 'json' format's encoder: TIMESTAMP "yyyy-MM-dd HH:mm:ss[.f]",
	// TIMESTAMP_LTZ in UTC with 'Z', BYTES as base64, ROW as an object, MAP
	// as an object with the keys' text) with
	// 'json.encode.decimal-as-plain-number' = 'true': DECIMAL with its
	// exact digits at its scale (10.00; by default Flink strips the zeros
	// and writes 1E+1).
	FormatJSONLines
	// FormatParquet writes one Parquet file with the 'parquet' format's
	// encoder (its type mapping and default compression); it needs the
	// parquet format to be registered (engine/connector/all).
	FormatParquet
)

var exportFormatNames = [...]string{"csv", "json", "parquet"}

// String returns "csv", "json" or "parquet" (the 'format' identifiers).
func (f ExportFormat) String() string {
	if int(f) < len(exportFormatNames) {
		return exportFormatNames[f]
	}
	return "ExportFormat(" + strconv.Itoa(int(f)) + ")"
}

// Extension is the file name extension of the format, with its dot:
// ".csv", ".jsonl" or ".parquet".
func (f ExportFormat) Extension() string {
	switch f {
	case FormatJSONLines:
		return ".jsonl"
	case FormatParquet:
		return ".parquet"
	}
	return ".csv"
}

// ParseExportFormat parses a format name: csv; json, jsonl or ndjson (JSON
// Lines); parquet.
func ParseExportFormat(s string) (ExportFormat, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "csv":
		return FormatCSV, nil
	case "json", "jsonl", "ndjson", "json lines":
		return FormatJSONLines, nil
	case "parquet":
		return FormatParquet, nil
	}
	return 0, fmt.Errorf("unknown export format %q: want csv, json or parquet", s)
}

// ExportFormatOf guesses the format from a file name's extension (.csv,
// .tsv, .txt → CSV; .json, .jsonl, .ndjson → JSON Lines; .parquet, .pq →
// Parquet); ok is false for other names.
func ExportFormatOf(path string) (f ExportFormat, ok bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv", ".txt":
		return FormatCSV, true
	case ".json", ".jsonl", ".ndjson":
		return FormatJSONLines, true
	case ".parquet", ".pq":
		return FormatParquet, true
	}
	return FormatCSV, false
}

// ValueRows are rows whose cells can be read as Go values (engine/types
// conventions; nil is NULL), as the JSON and Parquet encoders need them.
// Frozen implements it.
type ValueRows interface {
	Rows
	Value(row, col int) any
}

// exportBatchRows is the number of rows handed to an encoder at a time.
const exportBatchRows = 4096

// WriteEncoded writes rows to w with the file encoder of a registered
// format ("json", "parquet", …; options without the format's prefix) and
// returns the number of rows written. Column names that repeat get a
// suffix (a, a_2) since a file's columns need distinct names. progress is
// called as in WriteCSV; ctx cancels between batches.
func WriteEncoded(ctx context.Context, w io.Writer, rows ValueRows, format string, options map[string]string, progress func(written, total int)) (int, error) {
	f, err := connector.LookupFormat(format)
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	cols := rows.Columns()
	names := make([]string, len(cols))
	ts := make([]*types.DataType, len(cols))
	used := map[string]bool{}
	for i, c := range cols {
		name := c.Name
		for k := 2; used[strings.ToLower(name)]; k++ {
			name = c.Name + "_" + strconv.Itoa(k)
		}
		used[strings.ToLower(name)] = true
		names[i], ts[i] = name, c.Type
		if c.Type.Root == types.VariantRoot {
			// no file format stores a VARIANT: export its JSON text
			ts[i] = types.StringType().WithNullable(c.Type.Nullable)
		}
	}
	if options == nil {
		options = map[string]string{}
	}
	enc, err := f.CreateEncoder(&connector.FormatContext{Table: "export", Names: names, Types: ts, AllNames: names, AllTypes: ts, Options: options})
	if err != nil {
		return 0, fmt.Errorf("export as %s: %w", format, err)
	}
	bw := enc.NewWriter(w)
	total := rows.Len()
	vals := make([]any, len(cols))
	for from := 0; from < total; from += exportBatchRows {
		if err := ctx.Err(); err != nil {
			return from, err
		}
		to := min(total, from+exportBatchRows)
		bb := types.NewBatchBuilder(ts)
		for r := from; r < to; r++ {
			for c := range cols {
				vals[c] = rows.Value(r, c)
				if v, ok := vals[c].(types.Variant); ok {
					vals[c] = v.String()
				}
			}
			if err := bb.Append(types.Insert, vals); err != nil {
				return r, fmt.Errorf("export: row %d: %w", r+1, err)
			}
		}
		if err := bw.Write(bb.Build()); err != nil {
			return from, fmt.Errorf("export as %s: %w", format, err)
		}
		if progress != nil {
			progress(to, total)
		}
	}
	if err := bw.Flush(); err != nil {
		return total, fmt.Errorf("export as %s: %w", format, err)
	}
	if c, ok := bw.(connector.ClosingBatchWriter); ok {
		if err := c.Close(); err != nil {
			return total, fmt.Errorf("export as %s: %w", format, err)
		}
	}
	if progress != nil {
		progress(total, total)
	}
	return total, nil
}

// Write writes rows to w in format f (CSV with opts; the other formats
// ignore opts) and returns the number of rows written. JSON Lines and
// Parquet need ValueRows.
func Write(ctx context.Context, w io.Writer, rows Rows, f ExportFormat, opts CSVOptions, progress func(written, total int)) (int, error) {
	if f == FormatCSV {
		return WriteCSV(ctx, w, rows, opts, progress)
	}
	vr, ok := rows.(ValueRows)
	if !ok {
		return 0, fmt.Errorf("export: %s needs typed rows", f)
	}
	var options map[string]string
	if f == FormatJSONLines {
		// exact digits (10.00, not Jackson's stripped 1E+1)
		options = map[string]string{"encode.decimal-as-plain-number": "true"}
	}
	return WriteEncoded(ctx, w, vr, f.String(), options, progress)
}

// Export writes rows to the file path in format f atomically, as
// ExportCSV does: nothing is at path until the whole file is written.
func Export(ctx context.Context, rows Rows, path string, f ExportFormat, opts CSVOptions, progress func(written, total int)) error {
	return WriteFileAtomic(ctx, path, func(w io.Writer) error {
		_, err := Write(ctx, w, rows, f, opts, progress)
		return err
	})
}

// WriteFileAtomic creates path with what write writes, atomically: the
// bytes go to a temporary file in the same folder
// (".<name>.riffle-<pid>-*.partial"), which is synced and renamed over path
// only when write returns nil and ctx is not cancelled. On an error or
// cancellation the temporary file is removed and path is left as it was.
//
// A path that is a symbolic link is written through: the file it points to
// is replaced and the link stays. An existing file keeps its permission
// bits (a 0600 file stays 0600); a new file gets mode 0644. Temporary
// files a killed export left beside the file (their process is gone) are
// removed first.
func WriteFileAtomic(ctx context.Context, path string, write func(w io.Writer) error) (err error) {
	if real, rerr := filepath.EvalSymlinks(path); rerr == nil {
		path = real
	}
	mode := os.FileMode(0o644)
	if st, serr := os.Stat(path); serr == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("export: %s is not a regular file", path)
		}
		mode = st.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	removeStalePartials(dir, base)
	tmp, err := os.CreateTemp(dir, fmt.Sprintf(".%s.riffle-%d-*.partial", base, os.Getpid()))
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err = os.Chmod(tmp.Name(), mode); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err = ctx.Err(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	// Make the rename itself durable.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// removeStalePartials removes the temporary files of exports to base in
// dir whose process no longer runs (a killed export), and those of the
// older naming (".<name>.*.partial", before the process id was in it)
// that are more than a day old.
func removeStalePartials(dir, base string) {
	matches, _ := filepath.Glob(filepath.Join(dir, "."+globEscape(base)+".*.partial"))
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), "."+base+".")
		if pidText, ok := strings.CutPrefix(rest, "riffle-"); ok {
			pidText, _, _ = strings.Cut(pidText, "-")
			if pid, err := strconv.Atoi(pidText); err == nil && !processRunning(pid) {
				os.Remove(m)
			}
			continue
		}
		if st, err := os.Stat(m); err == nil && time.Since(st.ModTime()) > 24*time.Hour {
			os.Remove(m)
		}
	}
}

func globEscape(s string) string {
	r := strings.NewReplacer("*", "[*]", "?", "[?]", "[", "[[]", "\\", "\\\\")
	return r.Replace(s)
}
