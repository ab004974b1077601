package ui

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/results"
)

// resumeScript is a paced, checkpointed streaming count over an unbounded
// datagen table.
func resumeScript(checkpoints string) string {
	return "SET 'execution.checkpointing.interval' = '100 ms';\n" +
		"SET 'execution.checkpointing.dir' = '" + checkpoints + "';\n" +
		"CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '40');\n" +
		"SELECT COUNT(*) AS n FROM gen;"
}

// firstCount is the first value of a count's changelog, -1 before any.
func firstCount(r *results.Result) int { return firstValue(r, results.ChangelogView) }

// currentCount is a count's value now, -1 before any.
func currentCount(r *results.Result) int { return firstValue(r, results.TableView) }

func firstValue(r *results.Result, v results.View) int {
	if r.Len(v) == 0 {
		return -1
	}
	s := r.Snapshot(v, 0, 1, nil)
	n, err := strconv.Atoi(strings.ReplaceAll(s.Cells[0][0], ",", ""))
	if err != nil {
		return -1
	}
	return n
}

// TestResumeAfterKill kills a workbench process (a child running
// TestResumeAfterKillChild) whose checkpointed streaming count has taken a
// checkpoint after counting at least 20 rows, opens the workspace again,
// sees the offer, resumes, and reads a count that goes on from the
// checkpoint instead of starting from 1.
func TestResumeAfterKill(t *testing.T) {
	if os.Getenv("RIFFLE_UI_CHILD") != "" {
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "crashed.riffle")
	cmd := exec.Command(os.Args[0], "-test.run=^TestResumeAfterKillChild$")
	cmd.Env = append(os.Environ(), "RIFFLE_UI_CHILD="+path, "RIFFLE_UI_DATA="+sharedDataDir(t),
		"RIFFLE_UI_CHECKPOINTS="+filepath.Join(dir, "cp"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	counted := -1
	for sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), "checkpointed "); ok {
			counted, _ = strconv.Atoi(n)
			break
		}
		t.Log("child: " + sc.Text())
	}
	if counted < 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the child never took a checkpoint")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	test.NewTempApp(t)
	h := open(t, path, withWorkspaceCatalog)
	defer h.close()
	offer := h.wb.ResumeOffer()
	if offer == nil || !offer.Open() {
		t.Fatal("no resume offer")
	}
	lines := offer.Lines()
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "SELECT COUNT(*) AS n FROM gen (tab Query 1)\n    checkpoint #") {
		t.Fatalf("offer %q", lines)
	}
	if !strings.Contains(offer.IntroText(), filepath.Join(dir, "cp")) {
		t.Errorf("the offer does not say where the checkpoints stay: %q", offer.IntroText())
	}
	before := len(h.wb.results)
	offer.ResumeAll()
	h.settle()
	if len(h.wb.results) != before+1 {
		t.Fatalf("%d result tabs, want %d; messages:\n%s", len(h.wb.results), before+1, h.messages())
	}
	rt := h.wb.results[len(h.wb.results)-1]
	defer rt.Stop()
	waitFor(t, "the resumed count's first row", func() bool { return firstCount(rt.Res) >= 0 })
	first := firstCount(rt.Res)
	t.Logf("counted %d before the checkpoint; the resumed count starts at %d", counted, first)
	if first < counted {
		t.Errorf("the resumed count starts at %d, before the checkpoint's %d: it did not go on from the checkpoint", first, counted)
	}
	// The resumed job is remembered in the old one's place, with the same
	// checkpoint options, and is not offered again.
	jobs, err := h.wb.store.RunningJobs(t.Context())
	if err != nil || len(jobs) != 1 || jobs[0].JobID != rt.Job.JobID() || jobs[0].CheckpointInterval != "100 ms" ||
		jobs[0].JobCheckpointDir != filepath.Join(dir, "cp", rt.Job.JobID()) {
		t.Errorf("running jobs %+v (%v)", jobs, err)
	}
	if v := h.wb.env.GetConfig().Get("execution.state-recovery.path", ""); v != "" {
		t.Errorf("execution.state-recovery.path left set: %q", v)
	}
	rt.Stop()
	waitFor(t, "the resumed job to be forgotten once stopped", func() bool {
		jobs, _ := h.wb.store.RunningJobs(t.Context())
		return len(jobs) == 0
	})
}

// TestResumeAfterKillChild is the process TestResumeAfterKill kills: it
// runs the checkpointed count and says how far the count was when a
// checkpoint completed after it.
func TestResumeAfterKillChild(t *testing.T) {
	path := os.Getenv("RIFFLE_UI_CHILD")
	if path == "" || os.Getenv("RIFFLE_UI_CHECKPOINTS") == "" {
		t.Skip("child process of TestResumeAfterKill")
	}
	test.NewTempApp(t)
	h := open(t, path, withWorkspaceCatalog)
	tab := h.wb.editors.newTab("", resumeScript(os.Getenv("RIFFLE_UI_CHECKPOINTS")))
	h.wb.runScriptIn(tab, tab.ed.Text())
	h.settle()
	if len(h.wb.results) == 0 {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	rt := h.wb.results[len(h.wb.results)-1]
	waitFor(t, "a count of 20", func() bool { return currentCount(rt.Res) >= 20 })
	counted := currentCount(rt.Res)
	var seen int64
	if cp, ok := rt.Job.LastCheckpoint(); ok {
		seen = cp.ID
	}
	waitFor(t, "a checkpoint after the count", func() bool {
		c, ok := rt.Job.LastCheckpoint()
		return ok && c.ID > seen
	})
	jobs, err := h.wb.store.RunningJobs(t.Context())
	if err != nil || len(jobs) != 1 || jobs[0].JobID != rt.Job.JobID() {
		t.Fatalf("running jobs %+v (%v)", jobs, err)
	}
	os.Stdout.WriteString("checkpointed " + strconv.Itoa(counted) + "\n")
	os.Stdout.Sync()
	select {}
}

// A workbench closed normally cancels its jobs and forgets them: the
// workspace opens again without an offer.
func TestClosedWorkbenchOffersNothing(t *testing.T) {
	test.NewTempApp(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "closed.riffle")
	h := open(t, path, withWorkspaceCatalog)
	tab := h.wb.editors.newTab("", resumeScript(filepath.Join(dir, "cp")))
	h.wb.runScriptIn(tab, tab.ed.Text())
	h.settle()
	waitFor(t, "the job to be kept in the workspace", func() bool {
		jobs, _ := h.wb.store.RunningJobs(t.Context())
		return len(jobs) == 1
	})
	h.close()
	h = open(t, path, withWorkspaceCatalog)
	defer h.close()
	if h.wb.ResumeOffer() != nil {
		t.Errorf("an offer after a normal close: %q", h.wb.ResumeOffer().Lines())
	}
}
