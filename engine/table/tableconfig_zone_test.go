package table

import (
	"testing"
	"time"
)

// LocalTimeZoneLocation resolves what SetLocalTimeZone and SET accept,
// including Flink's custom offset ids.
func TestLocalTimeZoneLocation(t *testing.T) {
	env := MustCreate(InStreamingMode())
	cfg := env.Config()
	if loc, err := cfg.LocalTimeZoneLocation(); err != nil || loc != time.Local {
		t.Errorf("default: %v, %v", loc, err)
	}
	at := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
	for zone, offset := range map[string]int{"GMT+08:00": 8 * 3600, "GMT-0530": -(5*3600 + 30*60), "Asia/Tokyo": 9 * 3600, "UTC": 0} {
		if err := cfg.SetLocalTimeZone(zone); err != nil {
			t.Fatalf("%s: %v", zone, err)
		}
		loc, err := cfg.LocalTimeZoneLocation()
		if err != nil {
			t.Fatalf("%s: %v", zone, err)
		}
		if _, off := at.In(loc).Zone(); off != offset {
			t.Errorf("%s: offset %d s, want %d", zone, off, offset)
		}
	}
	if _, err := env.ExecuteSQL("SET 'table.local-time-zone' = 'GMT+03:00'"); err != nil {
		t.Fatal(err)
	}
	if loc, err := cfg.LocalTimeZoneLocation(); err != nil {
		t.Fatal(err)
	} else if _, off := at.In(loc).Zone(); off != 3*3600 {
		t.Errorf("after SET: offset %d", off)
	}
}
