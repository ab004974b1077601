package runtime

import (
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// discardedSuffix names a checkpoint directory being deleted
// (removeCheckpoint renames chk-<n> to it first).
const discardedSuffix = ".discarded"

// RemoveCheckpointLeftovers deletes, in a job's checkpoint directory
// (<dir>/<job id>), what a process killed while it took or deleted a
// checkpoint left behind: chk-<n>.inprogress directories (a checkpoint
// never completed) and chk-<n>.discarded ones (a checkpoint no longer
// retained, deleted halfway). Complete chk-<n> directories, which are the
// retained checkpoints, and anything else are never touched, nor is an
// in-progress directory a live process is writing (it holds a lock on
// it while it writes: lockDir). It returns the paths removed; a directory
// that cannot be read or removed is skipped (cleaning up is best effort).
func RemoveCheckpointLeftovers(jobDir string) []string {
	entries, err := os.ReadDir(jobDir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, "chk-") {
			continue
		}
		id, suffix, ok := strings.Cut(strings.TrimPrefix(name, "chk-"), ".")
		if _, err := strconv.ParseInt(id, 10, 64); err != nil || !ok {
			continue // chk-<n> itself (complete, retained) or not ours
		}
		path := filepath.Join(jobDir, name)
		switch "." + suffix {
		case discardedSuffix:
		case inProgressSuffix:
			unlock, free := tryLockDir(path)
			if !free {
				continue // a live checkpoint being written
			}
			unlock()
		default:
			continue
		}
		if err := os.RemoveAll(path); err == nil {
			removed = append(removed, path)
		}
	}
	return removed
}

// cleanRestoreLeftovers removes the leftovers next to the checkpoint a
// job resumes from (a chk-<n> in its job's checkpoint directory; a
// savepoint's directory is left alone) and logs what it removed.
func cleanRestoreLeftovers(cp *Checkpoint) {
	if cp == nil || cp.Savepoint || cp.Path == "" || !strings.HasPrefix(filepath.Base(cp.Path), "chk-") {
		return
	}
	dir := filepath.Dir(cp.Path)
	if removed := RemoveCheckpointLeftovers(dir); len(removed) > 0 {
		slog.Info("removed checkpoint leftovers of a process that ended while it took or deleted a checkpoint", "dir", dir, "removed", removed)
	}
}

// RemoveDiscardedJobDirs deletes, in a checkpoint directory (the parent
// of the jobs' folders), the <job id>.discarded folders a process killed
// while it deleted a finished or cancelled job's checkpoints left behind:
// nothing resumes from them. It returns the paths removed (best effort,
// as RemoveCheckpointLeftovers).
func RemoveDiscardedJobDirs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasSuffix(e.Name(), discardedSuffix) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if err := os.RemoveAll(path); err == nil {
			removed = append(removed, path)
		}
	}
	return removed
}
