package connectionsdialog

import (
	"fmt"
	"testing"
)

func TestParseProperties(t *testing.T) {
	p, err := parseProperties("-- comment\nexecution.runtime-mode = batch\nSET 'table.local-time-zone' = 'Europe/Paris';\n\n a=b=c ")
	if err != nil || len(p) != 3 || p["execution.runtime-mode"] != "batch" || p["table.local-time-zone"] != "Europe/Paris" || p["a"] != "b=c" {
		t.Errorf("%v %v", p, err)
	}
	if _, err := parseProperties("novalue"); err == nil {
		t.Error("a line without = accepted")
	}
	if got, _ := parseProperties(formatProperties(p)); fmt.Sprint(got) != fmt.Sprint(p) {
		t.Errorf("round trip %v", got)
	}
	for in, want := range map[string]string{"localhost:8083": "http://localhost:8083", "https://h/x/": "https://h/x"} {
		if got, err := normalizeURL(in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "ftp://h", "http://", "http://u:p@h"} {
		if _, err := normalizeURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
