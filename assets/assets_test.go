package assets

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExtractDataWritesVerbatimCopies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	p, err := ExtractDataTo(dir)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][]byte{p.Flights: FlightsCSV(), p.Airports: AirportsCSV()} {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the embedded copy", path)
		}
	}
	if !filepath.IsAbs(p.Flights) || filepath.Dir(p.Flights) != p.Dir {
		t.Errorf("paths not absolute or not in Dir: %+v", p)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("want exactly 2 files in %s, got %d", dir, len(entries))
	}
}

func TestExtractDataSkipsIdenticalAndRepairsDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	p, err := ExtractDataTo(dir)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p.Flights, old, old); err != nil {
		t.Fatal(err)
	}
	// Same size, different bytes: must be rewritten.
	damaged := bytes.Clone(AirportsCSV())
	damaged[10] ^= 0xff
	if err := os.WriteFile(p.Airports, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ExtractDataTo(dir); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p.Flights)
	if err != nil {
		t.Fatal(err)
	}
	if !st.ModTime().Equal(old) {
		t.Errorf("identical file was rewritten (mtime %v, want %v)", st.ModTime(), old)
	}
	got, _ := os.ReadFile(p.Airports)
	if !bytes.Equal(got, AirportsCSV()) {
		t.Error("damaged file was not repaired")
	}
}

func TestBundledDataShape(t *testing.T) {
	lines := bytes.Count(FlightsCSV(), []byte("\n"))
	if lines != 228739 { // header + 228,738 flights
		t.Errorf("flights has %d lines, want 228739", lines)
	}
	if !bytes.HasPrefix(FlightsCSV(), []byte("date,delay,distance,origin,destination\n")) {
		t.Error("flights header changed")
	}
	if !bytes.HasPrefix(AirportsCSV(), []byte("iata,name,city,state,country,latitude,longitude\n")) {
		t.Error("airports header changed")
	}
	if len(IconPNG) < 8 || string(IconPNG[1:4]) != "PNG" {
		t.Error("icon is not a PNG")
	}
}

func TestDemoWorkspace(t *testing.T) {
	d := DemoWorkspace(DataPaths{Flights: "/tmp/it's/flights.csv", Airports: "/data/airports.csv"})
	if strings.Contains(d.InitScript, "{{") {
		t.Error("unreplaced placeholder in init script")
	}
	for _, want := range []string{
		"'path' = '/tmp/it''s/flights.csv'",
		"'path' = '/data/airports.csv'",
		"`date`      TIMESTAMP(0)",
		"'csv.ignore-first-line' = 'true'",
	} {
		if !strings.Contains(d.InitScript, want) {
			t.Errorf("init script lacks %q", want)
		}
	}
	if len(d.Tabs) != 5 {
		t.Fatalf("want 5 demo tabs, got %d", len(d.Tabs))
	}
	for _, tab := range d.Tabs {
		if tab.Title == "" || !strings.Contains(tab.SQL, "SELECT") {
			t.Errorf("tab %q has no query", tab.Title)
		}
	}
	if !strings.Contains(d.Tabs[0].SQL, "JOIN airports") || !strings.Contains(d.Tabs[2].SQL, "'connector' = 'datagen'") {
		t.Error("demo tabs are not the join and the datagen stream")
	}
	if live := d.Tabs[3].SQL; !strings.Contains(live, "TUMBLE(TABLE flights_live") || !strings.Contains(live, "'path' = '/tmp/it''s/flights.csv'") || !strings.Contains(live, "'source.replay-speed'") {
		t.Errorf("the live flights tab is not a windowed replay of the flights file:\n%s", live)
	}
	if k := d.Tabs[4].SQL; !strings.Contains(k, "'connector' = 'kafka'") || !strings.Contains(k, "'properties.bootstrap.servers' = '127.0.0.1:9092'") ||
		!strings.Contains(k, "'topic' = '"+DemoKafkaTopic+"'") {
		t.Errorf("the Kafka tab does not read the demo topic:\n%s", k)
	}
	if k := DemoKafkaSQL("b1:9093,b2:9093"); !strings.Contains(k, "'properties.bootstrap.servers' = 'b1:9093,b2:9093'") {
		t.Errorf("bootstrap not filled in:\n%s", k)
	}
}

// The digests written in assets.go are the embedded files' (extraction
// compares a file on disk with them).
func TestBundledDigests(t *testing.T) {
	for _, f := range bundled {
		if got := sha256.Sum256(f.data); got != f.sum {
			t.Errorf("%s: SHA-256 %x, assets.go says %x: update its digest", f.name, got, f.sum)
		}
	}
}
