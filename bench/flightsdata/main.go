// Command flightsdata makes the 3 M-row flights data of the cross-engine
// harness in a cache folder (default ~/.cache/riffle/bench, never the
// repository):
//
//	flights-3m.parquet  3,000,000 rows (date TIMESTAMP, delay, distance
//	                    BIGINT, origin, destination VARCHAR), 13.5 MB, as the
//	                    npm package vega-datasets ships it
//	flights-3m.csv      the same rows as CSV with a header (written by
//	                    DuckDB from the Parquet file), 106 MB
//	airports.csv        the airports of the join query (same as assets/)
//
// The Parquet file comes from the public npm registry: `npm pack
// vega-datasets@3.2.1` into the cache folder, then the two files are taken
// out of the tarball. Files already there are kept; -force makes them
// again.
//
//	cd bench && go run ./flightsdata [-dir ~/.cache/riffle/bench]
package main

import (
	"archive/tar"
	"compress/gzip"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2"
)

// Package is the npm package (and version) carrying flights-3m.parquet.
const Package = "vega-datasets@3.2.1"

func main() {
	home, _ := os.UserHomeDir()
	dir := flag.String("dir", filepath.Join(home, ".cache", "riffle", "bench"), "folder for the data files")
	force := flag.Bool("force", false, "make the files again even when present")
	flag.Parse()
	if err := run(*dir, *force); err != nil {
		fmt.Fprintln(os.Stderr, "flightsdata:", err)
		os.Exit(1)
	}
}

func run(dir string, force bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	pq := filepath.Join(dir, "flights-3m.parquet")
	airports := filepath.Join(dir, "airports.csv")
	if force || !exists(pq) || !exists(airports) {
		tgz, err := npmPack(dir)
		if err != nil {
			return err
		}
		if err := extract(tgz, map[string]string{
			"package/data/flights-3m.parquet": pq,
			"package/data/airports.csv":       airports,
		}); err != nil {
			return err
		}
	}
	csv := filepath.Join(dir, "flights-3m.csv")
	if force || !exists(csv) {
		if err := parquetToCSV(pq, csv); err != nil {
			return err
		}
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	for _, p := range []string{pq, csv} {
		src := fmt.Sprintf("read_parquet('%s')", p)
		if strings.HasSuffix(p, ".csv") {
			src = fmt.Sprintf("read_csv('%s', header=true)", p)
		}
		var n int64
		if err := db.QueryRow("SELECT COUNT(*) FROM " + src).Scan(&n); err != nil {
			return err
		}
		st, _ := os.Stat(p)
		fmt.Printf("%s: %d rows, %.1f MB\n", p, n, float64(st.Size())/1e6)
	}
	return nil
}

func exists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Size() > 0
}

// npmPack downloads the package's tarball into dir with npm and returns
// its path.
func npmPack(dir string) (string, error) {
	cmd := exec.Command("npm", "pack", Package, "--pack-destination", dir, "--silent")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack %s (is npm installed and the registry reachable?): %v", Package, err)
	}
	lines := strings.Fields(strings.TrimSpace(string(out)))
	if len(lines) == 0 {
		return "", fmt.Errorf("npm pack %s printed no file name", Package)
	}
	return filepath.Join(dir, lines[len(lines)-1]), nil
}

// extract copies the named members of a .tgz to their targets (through a
// temporary file each, renamed when complete).
func extract(tgz string, members map[string]string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %v", tgz, err)
	}
	tr := tar.NewReader(gz)
	left := len(members)
	for left > 0 {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %v", tgz, err)
		}
		target, ok := members[h.Name]
		if !ok {
			continue
		}
		tmp := target + ".partial"
		out, err := os.Create(tmp)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, tr); err != nil {
			out.Close()
			os.Remove(tmp)
			return err
		}
		if err := out.Close(); err != nil {
			return err
		}
		if err := os.Rename(tmp, target); err != nil {
			return err
		}
		left--
	}
	if left > 0 {
		return fmt.Errorf("%s lacks %d of the files %v", tgz, left, members)
	}
	return nil
}

// parquetToCSV writes the Parquet file's rows as CSV with DuckDB.
func parquetToCSV(pq, csv string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	tmp := csv + ".partial"
	q := fmt.Sprintf("COPY (SELECT * FROM read_parquet('%s')) TO '%s' (FORMAT csv, HEADER true, TIMESTAMPFORMAT '%%Y-%%m-%%d %%H:%%M:%%S')", pq, tmp)
	if _, err := db.Exec(q); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %v", csv, err)
	}
	return os.Rename(tmp, csv)
}
