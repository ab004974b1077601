package filesystem

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"
)

// statisticsSampleLines is how many lines of the first file the row
// count estimate reads for the average line length.
const statisticsSampleLines = 100

// EstimatedRowCount implements connector.ReportsStatistics for line
// formats (csv, json), as Flink's CSV and JSON formats report statistics
// (FileBasedStatisticsReportableInputFormat): the files' total size
// divided by the average length of the first lines of the first file.
// Other formats, monitored paths, compressed files and unreadable files
// report no estimate.
func (src *Source) EstimatedRowCount(ctx context.Context) (int64, bool) {
	s := src.s
	if s.monitor > 0 || (s.formatID != "csv" && s.formatID != "json") {
		return 0, false
	}
	splits, err := src.listSplits(ctx)
	if err != nil || len(splits) == 0 {
		return 0, len(splits) == 0 && err == nil
	}
	var total int64
	var first string
	seen := map[string]bool{}
	for _, sp := range splits {
		f, ok := sp.(*FileSplit)
		if !ok {
			return 0, false
		}
		if compressedName(f.Path) {
			return 0, false
		}
		if seen[f.Path] {
			continue
		}
		seen[f.Path] = true
		if first == "" {
			first = f.Path
		}
		total += f.Size
	}
	avg, ok := averageLineLength(first)
	if !ok {
		return 0, false
	}
	return max(1, int64(float64(total)/avg)), true
}

// compressedName reports a file name with a compression suffix (its
// bytes say nothing of its lines).
func compressedName(p string) bool {
	for _, ext := range []string{".gz", ".gzip", ".bz2", ".xz", ".zst", ".deflate", ".zip", ".lz4"} {
		if strings.HasSuffix(strings.ToLower(p), ext) {
			return true
		}
	}
	return false
}

// averageLineLength is the mean length in bytes (line break included)
// of the first statisticsSampleLines lines of the file at path.
func averageLineLength(path string) (float64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var n, bytes int
	for n < statisticsSampleLines {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			return 0, false // a line longer than 64 KiB: no estimate
		}
		if len(line) > 0 {
			n++
			bytes += len(line)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, false
		}
	}
	if n == 0 {
		return 0, false
	}
	return float64(bytes) / float64(n), true
}
