package filesystem

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
)

// Exactly-once writing (Flink's FileSink in streaming mode): the writer is
// a connector.CommittingWriter. A part file goes through three states:
//
//	in-progress  ".part-<uuid>-<writer>-<n>.inprogress", being written
//	pending      the same hidden name, closed: rolled by the rolling policy
//	             or by a checkpoint's PrepareCommit, waiting for the
//	             checkpoint to complete
//	finished     "part-<uuid>-<writer>-<n>", renamed into place by
//	             CommitCheckpoint once the checkpoint is complete (or by
//	             Commit at the end of a bounded input)
//
// Readers skip names starting with '.' or '_', so they see finished files
// only. Every checkpoint rolls the open files (as Flink's bulk formats
// do, for every format here): a checkpoint's committable lists the files
// closed since the previous one, by their final names relative to the
// table's path. CommitCheckpoint renames them; a file already renamed (a
// restore publishing again) is fine, one missing under both names is an
// error. When the table is partitioned and 'sink.partition-commit.policy.kind'
// is 'success-file', committing also writes an empty success file
// (sink.partition-commit.success-file.name, "_SUCCESS") into each partition
// directory the checkpoint's files are in, once every writer has committed
// them: the 'process-time' trigger with a delay of 0. (At the end of a
// bounded input, and for a checkpoint restored, each writer commits the
// partitions of its own files.)

// Options of the rolling and partition commit policies.
const (
	OptInactivityInterval  = "sink.rolling-policy.inactivity-interval"
	OptPartitionCommitKind = "sink.partition-commit.policy.kind"
	OptPartitionTrigger    = "sink.partition-commit.trigger"
	OptPartitionDelay      = "sink.partition-commit.delay"
	OptSuccessFileName     = "sink.partition-commit.success-file.name"
	DefaultInactivity      = 30 * time.Minute
	DefaultRollingCheck    = time.Minute
)

// commitOptions are the options of filesystem_sink_commit.go, listed by
// Factory.Options.
func commitOptions() []connector.Option {
	return []connector.Option{
		{Key: OptInactivityInterval, Default: "30 min", Kind: "duration", Description: "The maximum time a part file may stay without writes before rolling; checked every 'sink.rolling-policy.check-interval'."},
		{Key: OptPartitionCommitKind, Kind: "string", Description: "How a partition is committed: 'success-file' writes a success file into its directory."},
		{Key: OptPartitionTrigger, Default: "process-time", Kind: "string", Description: "When a partition is committed: 'process-time' (when its files are committed)."},
		{Key: OptPartitionDelay, Default: "0 s", Kind: "duration", Description: "The delay before a partition is committed (0 only)."},
		{Key: OptSuccessFileName, Default: "_SUCCESS", Kind: "string", Description: "The name of the success file of the 'success-file' policy."},
	}
}

// commitSettings are the parsed rolling and partition commit options.
type commitSettings struct {
	check       time.Duration // sink.rolling-policy.check-interval
	inactivity  time.Duration // sink.rolling-policy.inactivity-interval
	successFile string        // "" when the success-file policy is off
}

// parseCommitOptions reads the options of filesystem_sink_commit.go.
func parseCommitOptions(ctx *connector.Context, s *settings) error {
	s.commit = commitSettings{check: DefaultRollingCheck, inactivity: DefaultInactivity}
	if v, ok := ctx.Options[OptRollingCheck]; ok {
		if d, err := config.ParseDuration(v); err == nil && d > 0 {
			s.commit.check = d
		}
	}
	if v, ok := ctx.Options[OptInactivityInterval]; ok {
		d, err := config.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("table %s: invalid '%s': %s", ctx.Table, OptInactivityInterval, v)
		}
		s.commit.inactivity = d
	}
	if v, ok := ctx.Options[OptPartitionTrigger]; ok && !strings.EqualFold(strings.TrimSpace(v), "process-time") {
		return fmt.Errorf("table %s: '%s' = '%s' is not supported: only 'process-time' is", ctx.Table, OptPartitionTrigger, v)
	}
	if v, ok := ctx.Options[OptPartitionDelay]; ok {
		d, err := config.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("table %s: invalid '%s': %s", ctx.Table, OptPartitionDelay, v)
		}
		if d != 0 {
			return fmt.Errorf("table %s: '%s' = '%s' is not supported: partitions are committed with their files (a delay of 0)", ctx.Table, OptPartitionDelay, v)
		}
	}
	name := "_SUCCESS"
	if v, ok := ctx.Options[OptSuccessFileName]; ok {
		if v == "" || strings.ContainsAny(v, `/\`) {
			return fmt.Errorf("table %s: invalid '%s': '%s' (a file name)", ctx.Table, OptSuccessFileName, v)
		}
		name = v
	}
	if v, ok := ctx.Options[OptPartitionCommitKind]; ok {
		for _, k := range strings.Split(v, ",") {
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "success-file":
				s.commit.successFile = name
			case "metastore", "custom":
				return fmt.Errorf("table %s: '%s' = '%s' is not supported: only 'success-file' is (there is no metastore to update)", ctx.Table, OptPartitionCommitKind, v)
			default:
				return fmt.Errorf("table %s: invalid '%s': '%s' (one of 'success-file', 'metastore', 'custom')", ctx.Table, OptPartitionCommitKind, v)
			}
		}
	}
	return nil
}

// commitState is a writer's side of checkpoints.
type commitState struct {
	prepared  int            // w.files[:prepared] are in a committable
	ids       map[int64]bool // checkpoints prepared by this writer and not yet committed
	tickStart time.Time      // the first file's opening: time-based rolling is checked from then on, every check interval
}

// timeToRoll reports whether the time-based policies would have rolled
// pw by now: Flink checks them on a timer every check interval, so the
// latest check at or before now is what counts (rollover-interval since the
// file was opened, inactivity-interval since its last write).
func (w *writer) timeToRoll(pw *partWriter, now time.Time) bool {
	s := w.k.s
	check := s.commit.check
	if check <= 0 {
		check = DefaultRollingCheck
	}
	inactivity := s.commit.inactivity
	if inactivity <= 0 {
		inactivity = DefaultInactivity
	}
	since := now.Sub(w.ckpt.tickStart)
	if since < 0 {
		return false
	}
	tick := w.ckpt.tickStart.Add(since / check * check)
	return tick.Sub(pw.opened) >= s.rollAfter || tick.Sub(pw.written) >= inactivity
}

// nextPart numbers the part files of writer index: a writer opened again
// with the same index (the job restarted from a checkpoint in the same
// process) goes on from the last number, never reusing a committed name.
func (k *Sink) nextPart(index int) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.parts == nil {
		k.parts = map[int]int{}
	}
	n := k.parts[index]
	k.parts[index] = n + 1
	return n
}

// PrepareCommit implements connector.CommittingWriter: it closes the open
// part files (they become pending) and returns the files closed since the
// previous checkpoint, with the partition directories they are in.
func (w *writer) PrepareCommit(_ context.Context, checkpointID int64) ([]byte, error) {
	if w.done {
		return encodeCommittable(nil), nil
	}
	var err error
	for dir, pw := range w.parts {
		if cerr := pw.close(); err == nil && cerr != nil {
			err = cerr
		}
		delete(w.parts, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("table %s: closing part files for checkpoint %d: %w", w.k.s.table, checkpointID, err)
	}
	var finals []string
	for i := w.ckpt.prepared; i < len(w.files); i++ {
		w.files[i].prepared = true
		rel, err := filepath.Rel(w.k.s.path, w.files[i].final)
		if err != nil {
			return nil, err
		}
		finals = append(finals, filepath.ToSlash(rel))
	}
	w.ckpt.prepared = len(w.files)
	if w.ckpt.ids == nil {
		w.ckpt.ids = map[int64]bool{}
	}
	w.ckpt.ids[checkpointID] = true
	w.k.partitionsPrepared(checkpointID)
	return encodeCommittable(finals), nil
}

// CommitCheckpoint implements connector.CommittingWriter: it renames the
// committable's pending files to their final names and, with the
// success-file policy, writes the success file of their partitions.
func (w *writer) CommitCheckpoint(_ context.Context, checkpointID int64, committable []byte) error {
	finals, err := decodeCommittable(committable)
	if err != nil {
		return fmt.Errorf("table %s: checkpoint %d: %w", w.k.s.table, checkpointID, err)
	}
	dirs := map[string]bool{}
	for _, rel := range finals {
		final := filepath.Join(w.k.s.path, filepath.FromSlash(rel))
		p := part{final: final, tmp: filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+".inprogress")}
		if err := publishPart(p); err != nil {
			return fmt.Errorf("table %s: committing checkpoint %d: %w", w.k.s.table, checkpointID, err)
		}
		dirs[filepath.Dir(final)] = true
	}
	if !w.ckpt.ids[checkpointID] {
		// a committable restored from a checkpoint: its partitions now
		return w.k.commitPartitions(dirs)
	}
	delete(w.ckpt.ids, checkpointID)
	return w.k.partitionsCommitted(checkpointID, dirs)
}

// partitionCommit gathers the partitions of one checkpoint's files: they
// are committed (success files) once every writer that prepared for the
// checkpoint has committed, as Flink's single partition committer waits
// for every writer task.
type partitionCommit struct {
	prepared, committed int
	dirs                map[string]bool
}

// partitionsPrepared counts a writer that prepared for checkpoint id.
func (k *Sink) partitionsPrepared(id int64) {
	if k.s.commit.successFile == "" || len(k.s.partKeys) == 0 {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.partCommits == nil {
		k.partCommits = map[int64]*partitionCommit{}
	}
	pc := k.partCommits[id]
	if pc == nil {
		pc = &partitionCommit{dirs: map[string]bool{}}
		k.partCommits[id] = pc
	}
	pc.prepared++
}

// partitionsCommitted records a writer's commit of checkpoint id; the
// last one commits the checkpoint's partitions.
func (k *Sink) partitionsCommitted(id int64, dirs map[string]bool) error {
	if k.s.commit.successFile == "" || len(k.s.partKeys) == 0 {
		return nil
	}
	k.mu.Lock()
	pc := k.partCommits[id]
	if pc == nil {
		k.mu.Unlock()
		return k.commitPartitions(dirs)
	}
	pc.committed++
	for d := range dirs {
		pc.dirs[d] = true
	}
	if pc.committed < pc.prepared {
		k.mu.Unlock()
		return nil
	}
	delete(k.partCommits, id)
	k.mu.Unlock()
	return k.commitPartitions(pc.dirs)
}

// publishPart renames a pending file to its final name; a file already
// renamed (committed before a restart) is fine.
func publishPart(p part) error {
	err := os.Rename(p.tmp, p.final)
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if _, serr := os.Stat(p.final); serr == nil {
		return nil
	}
	return fmt.Errorf("pending file %s is missing and %s does not exist", p.tmp, p.final)
}

// commitPartitions writes the success file into each partition directory
// of a partitioned table, when the success-file policy is on.
func (k *Sink) commitPartitions(dirs map[string]bool) error {
	s := k.s
	if s.commit.successFile == "" || len(s.partKeys) == 0 {
		return nil
	}
	for d := range dirs {
		if d == s.path {
			continue
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, s.commit.successFile), nil, 0o644); err != nil {
			return fmt.Errorf("table %s: writing the success file of partition %s: %w", s.table, d, err)
		}
	}
	return nil
}

// committableMagic starts a committable: its format and version.
const committableMagic = "fsc1"

func encodeCommittable(finals []string) []byte {
	b := []byte(committableMagic)
	b = binary.AppendUvarint(b, uint64(len(finals)))
	for _, f := range finals {
		b = binary.AppendUvarint(b, uint64(len(f)))
		b = append(b, f...)
	}
	return b
}

func decodeCommittable(b []byte) ([]string, error) {
	if !strings.HasPrefix(string(b), committableMagic) {
		return nil, errors.New("not a committable of the filesystem sink")
	}
	b = b[len(committableMagic):]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errors.New("the filesystem sink's committable is corrupt")
	}
	b = b[k:]
	finals := make([]string, 0, n)
	for i := uint64(0); i < n; i++ {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, errors.New("the filesystem sink's committable is truncated")
		}
		f := string(b[k : k+int(l)])
		if c := filepath.ToSlash(filepath.Clean(f)); f == "" || filepath.IsAbs(f) || c == ".." || strings.HasPrefix(c, "../") {
			return nil, fmt.Errorf("the filesystem sink's committable names a file outside the table: %q", f)
		}
		finals = append(finals, f)
		b = b[k+int(l):]
	}
	if len(b) != 0 {
		return nil, errors.New("the filesystem sink's committable has trailing bytes")
	}
	return finals, nil
}

var _ connector.CommittingWriter = (*writer)(nil)
