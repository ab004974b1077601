// Package assets bundles Riffle's icon, sample data and demo workspace.
//
// The sample data (US flights and airports, see README.md in this folder)
// is embedded in the binary and extracted to the user's cache directory on
// first use, so that the engine's filesystem connector can read it like any
// other file. The demo workspace is an init script that registers the data
// as tables plus three editor tabs.
package assets

//go:generate go run gen_icon.go

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// IconPNG is the application icon, 256×256 (drawn by gen_icon.go).
//
//go:embed icon.png
var IconPNG []byte

//go:embed flights-2001-01-01_14.csv
var flightsCSV []byte

//go:embed airports.csv
var airportsCSV []byte

//go:embed demo/init.sql
var demoInit string

//go:embed demo/1-delays-by-state.sql
var demoTab1 string

//go:embed demo/2-time-of-day.sql
var demoTab2 string

//go:embed demo/3-live-stream.sql
var demoTab3 string

//go:embed demo/4-live-flights.sql
var demoTab4 string

//go:embed demo/5-kafka-flights.sql
var demoTab5 string

// DemoKafkaTopic is the topic the Kafka demo tab reads (the workbench
// produces the bundled flights there on request).
const DemoKafkaTopic = "riffle-demo-flights"

// DemoKafkaSQL returns the Kafka demo tab's SQL reading the cluster at
// bootstrap ("host:port,…"); "" leaves the placeholder 127.0.0.1:9092.
func DemoKafkaSQL(bootstrap string) string {
	if bootstrap == "" {
		bootstrap = "127.0.0.1:9092"
	}
	return strings.ReplaceAll(demoTab5, "{{kafka}}", sqlString(bootstrap))
}

// File names of the bundled data, as extracted.
const (
	FlightsFile  = "flights-2001-01-01_14.csv"
	AirportsFile = "airports.csv"
)

// DataPaths are the absolute paths of the extracted sample files.
type DataPaths struct {
	Dir      string // the folder holding both files
	Flights  string
	Airports string
}

type bundledFile struct {
	name string
	data []byte
	sum  [32]byte // SHA-256 of data
}

// The bundled files' SHA-256 digests, written here rather than computed at
// start: hashing the 8 MB flights file made the process read every page of
// its copy in the binary on each start, which then stayed resident (issue
// 19 §5). TestBundledDigests checks them against the embedded data;
// replacing a file means updating its digest (sha256sum assets/FILE).
const (
	flightsSHA256  = "2707e78fb185611987c3c18b47fbcf5dba08eef6bbab22fbc5bcde16cdfd3874"
	airportsSHA256 = "903c7169e6d558eefb95295fe2947ec8503135fbb855ea5c737cf4a90ea603ad"
)

func newBundled(name string, data []byte, digest string) bundledFile {
	f := bundledFile{name: name, data: data}
	if n, err := hex.Decode(f.sum[:], []byte(digest)); err != nil || n != len(f.sum) {
		panic("assets: bad SHA-256 digest for " + name) // a constant above: caught by the tests
	}
	return f
}

var bundled = []bundledFile{
	newBundled(FlightsFile, flightsCSV, flightsSHA256),
	newBundled(AirportsFile, airportsCSV, airportsSHA256),
}

// DefaultDataDir is os.UserCacheDir()/riffle/data.
func DefaultDataDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("locating the user cache directory: %w", err)
	}
	return filepath.Join(cache, "riffle", "data"), nil
}

// ExtractData writes the sample files to DefaultDataDir (once; see ExtractDataTo).
func ExtractData() (DataPaths, error) {
	dir, err := DefaultDataDir()
	if err != nil {
		return DataPaths{}, err
	}
	return ExtractDataTo(dir)
}

var extractMu sync.Mutex

// ExtractDataTo writes the sample files into dir and returns their paths.
// A file already there with the same size and SHA-256 is left alone;
// anything else is replaced atomically (written to a temporary file in dir,
// synced, then renamed), so a reader never sees a half-written file.
func ExtractDataTo(dir string) (DataPaths, error) {
	extractMu.Lock()
	defer extractMu.Unlock()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return DataPaths{}, fmt.Errorf("creating %s: %w", dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return DataPaths{}, err
	}
	for _, f := range bundled {
		if err := extractOne(filepath.Join(abs, f.name), f); err != nil {
			return DataPaths{}, err
		}
	}
	return DataPaths{
		Dir:      abs,
		Flights:  filepath.Join(abs, FlightsFile),
		Airports: filepath.Join(abs, AirportsFile),
	}, nil
}

func extractOne(path string, f bundledFile) error {
	if same, err := sameContent(path, f); err != nil {
		return err
	} else if same {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("extracting %s: %w", filepath.Base(path), err)
	}
	committed := false
	defer func() {
		if !committed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(f.data); err != nil {
		return fmt.Errorf("extracting %s: %w", filepath.Base(path), err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("extracting %s: %w", filepath.Base(path), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("extracting %s: %w", filepath.Base(path), err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("extracting %s: %w", filepath.Base(path), err)
	}
	committed = true
	return nil
}

// sameContent reports whether path holds exactly f's data (size, then SHA-256).
func sameContent(path string, f bundledFile) (bool, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !st.Mode().IsRegular() || st.Size() != int64(len(f.data)) {
		return false, nil
	}
	in, err := os.Open(path)
	if err != nil {
		return false, nil // unreadable: rewrite it
	}
	defer in.Close()
	h := sha256.New()
	if _, err := io.Copy(h, in); err != nil {
		return false, nil
	}
	return bytes.Equal(h.Sum(nil), f.sum[:]), nil
}

// FlightsCSV returns the embedded flights file (read-only: do not modify).
func FlightsCSV() []byte { return flightsCSV }

// AirportsCSV returns the embedded airports file (read-only: do not modify).
func AirportsCSV() []byte { return airportsCSV }

// DemoTab is one editor tab of the demo workspace.
type DemoTab struct {
	Title string
	SQL   string
}

// Demo is the demo workspace: an init script and editor tabs.
type Demo struct {
	InitScript string
	Tabs       []DemoTab
}

// DemoWorkspace returns the demo workspace with the init script pointing at
// the extracted data files.
func DemoWorkspace(p DataPaths) Demo {
	r := strings.NewReplacer("{{flights}}", sqlString(p.Flights), "{{airports}}", sqlString(p.Airports))
	return Demo{
		InitScript: r.Replace(demoInit),
		Tabs: []DemoTab{
			{Title: "Delays by state", SQL: demoTab1},
			{Title: "Flights by hour", SQL: demoTab2},
			{Title: "Live stream", SQL: demoTab3},
			{Title: "Live flights", SQL: r.Replace(demoTab4)},
			{Title: "Kafka flights", SQL: DemoKafkaSQL("")},
		},
	}
}

// sqlString escapes s for use inside a single-quoted SQL string literal.
func sqlString(s string) string { return strings.ReplaceAll(s, "'", "''") }
