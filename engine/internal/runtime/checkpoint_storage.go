package runtime

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/kvstate"
)

// A checkpoint on disk (Flink's layout, simplified):
//
//	<dir>/<job id>/chk-<n>/_metadata          JSON manifest, below
//	<dir>/<job id>/chk-<n>/<uid>-<subtask>.state   one operator instance's state
//	<dir>/<job id>/chk-<n>/<uid>-<subtask>.db/     its store, with the disk state backend
//	<savepoint dir>/savepoint-<job id[:6]>-<12 hex>/…   the same for a savepoint
//
// A checkpoint is written into <name>.inprogress, every file synced, the
// manifest last, and the directory then renamed: a directory named chk-<n>
// or savepoint-… is always complete. The manifest lists each state file
// with its size and CRC-32C, checked when the checkpoint is loaded.
//
// With the disk state backend an operator instance's store is a folder of
// files (kvstate.Store.Checkpoint): the manifest lists each with its size,
// and the CRC-32C of all but the SST files (which carry checksums of their
// own, verified as they are read, and may be GiB). An incremental
// checkpoint (execution.checkpointing.incremental) hard links each SST
// file the previous checkpoint already holds (SST files never change) and
// links or copies only the new ones; a full one, and every savepoint,
// copies every file. Either way each checkpoint directory is complete on
// its own: deleting an older one never breaks a newer one.

// checkpointFormat and checkpointVersion identify the manifest.
// Version 2 manifests may list store directories (disk state backend);
// a checkpoint without one is still written as version 1.
const (
	checkpointFormat   = "riffle-checkpoint"
	checkpointVersion  = 2
	checkpointMetadata = "_metadata"
	inProgressSuffix   = ".inprogress"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// manifest is the JSON of _metadata.
type manifest struct {
	Format       string             `json:"format"`
	Version      int                `json:"version"`
	JobID        string             `json:"jobId"`
	JobName      string             `json:"jobName,omitempty"`
	CheckpointID int64              `json:"checkpointId"`
	Savepoint    bool               `json:"savepoint"`
	Timestamp    time.Time          `json:"timestamp"`
	Operators    []CheckpointedNode `json:"operators"`
}

// CheckpointedNode is one operator's part of a checkpoint's manifest.
type CheckpointedNode struct {
	// UID identifies the operator across runs of the same query.
	UID string `json:"uid"`
	// Name is the operator with its EXPLAIN attributes, for messages.
	Name        string             `json:"name"`
	Parallelism int                `json:"parallelism"`
	Subtasks    []CheckpointedTask `json:"subtasks"`
}

// CheckpointedTask is one parallel instance's state in a checkpoint.
type CheckpointedTask struct {
	Subtask int `json:"subtask"`
	// File holds the state ("" when the instance saved none); Size bytes
	// with CRC-32C (Castagnoli) CRC.
	File string `json:"file,omitempty"`
	Size int64  `json:"size,omitempty"`
	CRC  uint32 `json:"crc32c,omitempty"`
	// Finished is set when the instance had finished: a resumed job does
	// not run it again.
	Finished bool `json:"finished,omitempty"`
	// DB is the folder of the instance's store (disk state backend) and
	// DBFiles its files.
	DB      string      `json:"db,omitempty"`
	DBFiles []StoreFile `json:"dbFiles,omitempty"`
}

// StoreFile is one file of a store's checkpoint: Size bytes, with CRC-32C
// CRC (0 and not checked for an SST file).
type StoreFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	CRC  uint32 `json:"crc32c,omitempty"`
}

// Checkpoint is a complete checkpoint or savepoint loaded from disk, its
// state files read and checked.
type Checkpoint struct {
	// Path is the checkpoint's directory.
	Path      string
	ID        int64
	JobID     string
	Savepoint bool
	Timestamp time.Time
	Operators []CheckpointedNode

	states map[string]map[int]operatorState
}

// Size is the bytes of state the checkpoint holds.
func (cp *Checkpoint) Size() int64 {
	var n int64
	for _, op := range cp.Operators {
		for _, t := range op.Subtasks {
			n += t.Size
			for _, f := range t.DBFiles {
				n += f.Size
			}
		}
	}
	return n
}

// state returns the saved state of one operator instance.
func (cp *Checkpoint) state(uid string, subtask int) (operatorState, bool) {
	st, ok := cp.states[uid][subtask]
	return st, ok
}

// checkpointJobDir is where a job's checkpoints go.
func checkpointJobDir(dir, jobID string) string { return filepath.Join(dir, jobID) }

// writeCheckpoint writes p's states under dir (a job's checkpoint
// directory, or for a savepoint the savepoint directory) and returns its
// stats. prev is the job's previous complete checkpoint ("" when none),
// whose SST files an incremental checkpoint links. On error nothing is
// left but the earlier checkpoints. The stores' staged copies (taken at
// the barrier, operatorState.dbDir) are removed either way.
func writeCheckpoint(dir string, j *Job, p *pendingCheckpoint, names map[string]string, parallelism map[string]int, prev string, incremental bool) (CheckpointStats, error) {
	defer func() {
		for _, st := range p.states {
			if st.dbDir != "" {
				_ = os.RemoveAll(st.dbDir)
			}
		}
	}()
	if p.savepoint {
		// a savepoint is the user's: every file copied, nothing shared
		prev, incremental = "", false
	}
	name := "chk-" + strconv.FormatInt(p.id, 10)
	if p.savepoint {
		var r [6]byte
		_, _ = rand.Read(r[:])
		name = "savepoint-" + j.ID[:min(6, len(j.ID))] + "-" + hex.EncodeToString(r[:])
	}
	final := filepath.Join(dir, name)
	tmp := final + inProgressSuffix
	stats := CheckpointStats{ID: p.id, Savepoint: p.savepoint, Path: final, Triggered: p.triggered}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return stats, fmt.Errorf("checkpoint %d: %w", p.id, err)
	}
	// held while this process writes it: RemoveCheckpointLeftovers, in
	// another process resuming from this job's checkpoints, leaves it be
	unlock, _ := tryLockDir(tmp)
	defer unlock()
	ok := false
	defer func() {
		if !ok {
			_ = os.RemoveAll(tmp)
		}
	}()
	m := manifest{Format: checkpointFormat, Version: 1, JobID: j.ID, JobName: j.Name, CheckpointID: p.id, Savepoint: p.savepoint, Timestamp: p.triggered.UTC()}
	byUID := map[string]*CheckpointedNode{}
	for _, st := range p.states {
		op := byUID[st.uid]
		if op == nil {
			op = &CheckpointedNode{UID: st.uid, Name: names[st.uid], Parallelism: parallelism[st.uid]}
			byUID[st.uid] = op
		}
		t := CheckpointedTask{Subtask: st.subtask, Finished: st.finished}
		if len(st.state) > 0 {
			t.File = st.uid + "-" + strconv.Itoa(st.subtask) + ".state"
			t.Size = int64(len(st.state))
			t.CRC = crc32.Checksum(st.state, castagnoli)
			if err := writeSynced(filepath.Join(tmp, t.File), st.state); err != nil {
				return stats, fmt.Errorf("checkpoint %d: %w", p.id, err)
			}
			stats.Size += t.Size
			stats.IncrementalSize += t.Size
		}
		if st.dbDir != "" {
			t.DB = st.uid + "-" + strconv.Itoa(st.subtask) + ".db"
			prevDB := ""
			if prev != "" && incremental {
				prevDB = filepath.Join(prev, t.DB)
			}
			files, size, written, err := copyStore(st.dbDir, filepath.Join(tmp, t.DB), prevDB, incremental)
			if err != nil {
				return stats, fmt.Errorf("checkpoint %d: state of %s: %w", p.id, shortName(names[st.uid]), err)
			}
			t.DBFiles = files
			stats.Size += size
			stats.IncrementalSize += written
			m.Version = checkpointVersion
		}
		op.Subtasks = append(op.Subtasks, t)
	}
	for _, op := range byUID {
		sort.Slice(op.Subtasks, func(a, b int) bool { return op.Subtasks[a].Subtask < op.Subtasks[b].Subtask })
		m.Operators = append(m.Operators, *op)
	}
	sort.Slice(m.Operators, func(a, b int) bool { return m.Operators[a].UID < m.Operators[b].UID })
	js, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return stats, err
	}
	if err := writeSynced(filepath.Join(tmp, checkpointMetadata), append(js, '\n')); err != nil {
		return stats, fmt.Errorf("checkpoint %d: %w", p.id, err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return stats, fmt.Errorf("checkpoint %d: %w", p.id, err)
	}
	syncDir(dir)
	ok = true
	return stats, nil
}

// copyStore puts the store checkpoint src into the new directory dst and
// lists its files: an SST file that prevDB (the previous checkpoint's
// copy of the same store, "" for none) holds with the same size is hard
// linked from there; other SST files are linked from src when
// incremental (copied when dst is on another file system), copied when
// not; the other files (MANIFEST, OPTIONS, markers) are always copied.
// size is the bytes of all files, written those not taken from prevDB.
func copyStore(src, dst, prevDB string, incremental bool) (files []StoreFile, size, written int64, err error) {
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, 0, 0, err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, 0, 0, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			return nil, 0, 0, err
		}
		name := e.Name()
		from, to := filepath.Join(src, name), filepath.Join(dst, name)
		f := StoreFile{Name: name, Size: fi.Size()}
		size += f.Size
		if strings.HasSuffix(name, ".sst") {
			if prevDB != "" {
				if pfi, err := os.Stat(filepath.Join(prevDB, name)); err == nil && pfi.Size() == f.Size &&
					os.Link(filepath.Join(prevDB, name), to) == nil {
					files = append(files, f)
					continue
				}
			}
			if incremental {
				err = kvstate.LinkOrCopy(from, to)
			} else {
				err = kvstate.CopyFile(from, to)
			}
			if err != nil {
				return nil, 0, 0, err
			}
			written += f.Size
			files = append(files, f)
			continue
		}
		data, err := os.ReadFile(from)
		if err != nil {
			return nil, 0, 0, err
		}
		f.Size = int64(len(data))
		f.CRC = crc32.Checksum(data, castagnoli)
		if err := writeSynced(to, data); err != nil {
			return nil, 0, 0, err
		}
		written += f.Size
		files = append(files, f)
	}
	syncDir(dst)
	return files, size, written, nil
}

// writeSynced writes data to a new file and syncs it.
func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir syncs a directory so that a rename in it is durable (best
// effort: not every file system supports it).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// removeCheckpoint deletes a checkpoint no longer retained: it is renamed
// out of the chk-<n> name first, so a crash midway never leaves a partial
// directory under a complete one's name.
func removeCheckpoint(dir string) {
	tmp := dir + discardedSuffix
	if err := os.Rename(dir, tmp); err != nil {
		return
	}
	_ = os.RemoveAll(tmp)
}

// LoadCheckpoint reads a checkpoint or savepoint: path is its directory
// (holding _metadata), a job's checkpoint directory (the complete chk-<n>
// with the highest n is taken), or the _metadata file itself. Every state
// file is read and checked against the manifest's size and CRC-32C; a
// missing or corrupt file, a manifest that does not parse, or one of a
// newer format version is an error naming the file.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	if path == "" {
		return nil, errors.New("no checkpoint path given")
	}
	dir := path
	if filepath.Base(path) == checkpointMetadata {
		dir = filepath.Dir(path)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("checkpoint %s: not a directory nor a _metadata file", path)
	}
	if base := filepath.Base(dir); strings.HasSuffix(base, inProgressSuffix) || strings.HasSuffix(base, discardedSuffix) {
		// a checkpoint or savepoint never completed, or one being deleted
		// when its process ended: its files may be partial
		return nil, fmt.Errorf("checkpoint %s is not complete (a process ended while it wrote or deleted it): resume from a complete chk-<n> or savepoint directory", path)
	}
	if _, err := os.Stat(filepath.Join(dir, checkpointMetadata)); errors.Is(err, fs.ErrNotExist) {
		latest, lerr := latestCheckpoint(dir)
		if lerr != nil {
			return nil, lerr
		}
		dir = latest
	}
	metaPath := filepath.Join(dir, checkpointMetadata)
	raw, err := os.ReadFile(metaPath)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("checkpoint %s is corrupt: %v", metaPath, err)
	}
	if m.Format != checkpointFormat {
		return nil, fmt.Errorf("checkpoint %s: not a Riffle checkpoint (format %q)", metaPath, m.Format)
	}
	if m.Version > checkpointVersion || m.Version < 1 {
		return nil, fmt.Errorf("checkpoint %s: format version %d; this Riffle reads version %d", metaPath, m.Version, checkpointVersion)
	}
	cp := &Checkpoint{Path: dir, ID: m.CheckpointID, JobID: m.JobID, Savepoint: m.Savepoint, Timestamp: m.Timestamp, Operators: m.Operators,
		states: map[string]map[int]operatorState{}}
	for _, op := range m.Operators {
		subs := map[int]operatorState{}
		for _, t := range op.Subtasks {
			st := operatorState{uid: op.UID, subtask: t.Subtask, finished: t.Finished}
			if t.File != "" {
				if strings.ContainsAny(t.File, `/\`) || t.File == ".." {
					return nil, fmt.Errorf("checkpoint %s is corrupt: state file name %q", metaPath, t.File)
				}
				fp := filepath.Join(dir, t.File)
				data, err := os.ReadFile(fp)
				if err != nil {
					return nil, fmt.Errorf("checkpoint %s: state of %s: %w", dir, shortName(op.Name), err)
				}
				if int64(len(data)) != t.Size {
					return nil, fmt.Errorf("checkpoint file %s is corrupt: %d bytes, the manifest says %d", fp, len(data), t.Size)
				}
				if crc := crc32.Checksum(data, castagnoli); crc != t.CRC {
					return nil, fmt.Errorf("checkpoint file %s is corrupt: CRC-32C %08x, the manifest says %08x", fp, crc, t.CRC)
				}
				st.state = data
			}
			if t.DB != "" {
				dbDir, err := checkStore(dir, metaPath, op.Name, t)
				if err != nil {
					return nil, err
				}
				st.dbDir = dbDir
			}
			subs[t.Subtask] = st
		}
		cp.states[op.UID] = subs
	}
	return cp, nil
}

// checkStore checks the files of an operator instance's store against the
// manifest: each exists with its size, and all but SST files with their
// CRC-32C. It returns the store's directory.
func checkStore(dir, metaPath, opName string, t CheckpointedTask) (string, error) {
	bad := func(name string) bool {
		return name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`)
	}
	if bad(t.DB) {
		return "", fmt.Errorf("checkpoint %s is corrupt: store directory name %q", metaPath, t.DB)
	}
	db := filepath.Join(dir, t.DB)
	for _, f := range t.DBFiles {
		if bad(f.Name) {
			return "", fmt.Errorf("checkpoint %s is corrupt: store file name %q", metaPath, f.Name)
		}
		fp := filepath.Join(db, f.Name)
		fi, err := os.Stat(fp)
		if err != nil {
			return "", fmt.Errorf("checkpoint %s: state of %s: %w", dir, shortName(opName), err)
		}
		if fi.Size() != f.Size {
			return "", fmt.Errorf("checkpoint file %s is corrupt: %d bytes, the manifest says %d", fp, fi.Size(), f.Size)
		}
		if strings.HasSuffix(f.Name, ".sst") {
			continue
		}
		data, err := os.ReadFile(fp)
		if err != nil {
			return "", fmt.Errorf("checkpoint %s: state of %s: %w", dir, shortName(opName), err)
		}
		if crc := crc32.Checksum(data, castagnoli); crc != f.CRC {
			return "", fmt.Errorf("checkpoint file %s is corrupt: CRC-32C %08x, the manifest says %08x", fp, crc, f.CRC)
		}
	}
	return db, nil
}

// latestCheckpoint returns the complete chk-<n> directory with the highest
// n under a job's checkpoint directory.
func latestCheckpoint(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	best, bestN := "", int64(-1)
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, "chk-") {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimPrefix(name, "chk-"), 10, 64)
		if err != nil {
			continue // chk-<n>.inprogress, .discarded
		}
		if _, err := os.Stat(filepath.Join(dir, name, checkpointMetadata)); err != nil {
			continue
		}
		if n > bestN {
			best, bestN = filepath.Join(dir, name), n
		}
	}
	if best == "" {
		return "", fmt.Errorf("no checkpoint at %s: neither a _metadata file nor a complete chk-<n> directory", dir)
	}
	return best, nil
}
