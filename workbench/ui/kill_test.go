package ui

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestKilledWorkbenchKeepsTheAutosavedText kills a workbench process (a
// child running TestKilledWorkbenchChild) after its autosaver saved what
// was typed, while newer typing is still pending, and reopens the
// workspace: the autosaved text, the tab order and the cursor are there.
func TestKilledWorkbenchKeepsTheAutosavedText(t *testing.T) {
	if os.Getenv("RIFFLE_UI_CHILD") != "" {
		return
	}
	path := filepath.Join(t.TempDir(), "killed.riffle")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWorkbenchChild$")
	cmd.Env = append(os.Environ(), "RIFFLE_UI_CHILD="+path, "RIFFLE_UI_DATA="+sharedDataDir(t))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	ready := false
	for sc.Scan() {
		if sc.Text() == "autosaved" {
			ready = true
			break
		}
	}
	if !ready {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the child never autosaved")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	test.NewTempApp(t)
	h := open(t, path)
	defer h.close()
	var got []string
	for _, tab := range h.wb.editors.list {
		got = append(got, tab.title)
	}
	if fmt.Sprint(got) != "[Delays by state Flights by hour Live stream Live flights Kafka flights Query 1]" {
		t.Errorf("tabs %q", got)
	}
	last := h.wb.editors.list[len(h.wb.editors.list)-1]
	if text := last.ed.Text(); text != "SELECT * FROM flights WHERE delay > 60" {
		t.Errorf("text %q", text)
	}
	if l, c := last.ed.CursorPosition(); l != 0 || c != 38 {
		t.Errorf("cursor %d:%d", l, c)
	}
}

// TestKilledWorkbenchChild is the process TestKilledWorkbenchKeepsTheAutosavedText kills.
func TestKilledWorkbenchChild(t *testing.T) {
	path := os.Getenv("RIFFLE_UI_CHILD")
	if path == "" {
		t.Skip("child process of TestKilledWorkbenchKeepsTheAutosavedText")
	}
	test.NewTempApp(t)
	q := &uiQueue{}
	w := test.NewWindow(nil)
	wb, err := New(w, Options{Workspace: path, DataDir: os.Getenv("RIFFLE_UI_DATA"), Do: q.Do, NoTicker: true, FlashDuration: -1})
	if err != nil {
		t.Fatal(err)
	}
	// the autosaver's timers run on the wall clock until "autosaved" is
	// printed, and never fire after: the typing that follows stays
	// pending however late the parent's kill comes (a loaded machine)
	clock := &shutClock{}
	wb.saver.SetClock(clock)
	tab := wb.editors.newTab("", "")
	test.Type(tab.ed, "SELECT * FROM flights WHERE delay > 60")
	// Wait until the autosaver's timer (not a Flush) has committed it (or
	// fail, so the parent reads no "autosaved").
	waitFor(t, "the autosaver's timer to save the tab", func() bool {
		tabs, err := wb.store.Tabs(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range tabs {
			if st.ID == tab.id && st.Text == "SELECT * FROM flights WHERE delay > 60" && st.CursorCol == 38 {
				return true
			}
		}
		return false
	})
	clock.shut.Store(true)
	fmt.Println("autosaved")
	os.Stdout.Sync()
	test.Type(tab.ed, " AND origin = 'SFO'") // pending when killed
	select {}
}

// shutClock is the system clock for an autosaver until shut is set; the
// timers asked for after that never fire.
type shutClock struct{ shut atomic.Bool }

func (c *shutClock) Now() time.Time { return time.Now() }

func (c *shutClock) At(t time.Time) (<-chan time.Time, func()) {
	if c.shut.Load() {
		return make(chan time.Time), func() {}
	}
	tm := time.NewTimer(time.Until(t))
	return tm.C, func() { tm.Stop() }
}
