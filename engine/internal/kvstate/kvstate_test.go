package kvstate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func newBackend(t *testing.T) *Backend {
	t.Helper()
	b, err := NewBackend("job1", Options{Dir: t.TempDir(), BlockCache: 1 << 20, WriteBuffer: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestStoreGetPutDeleteScan(t *testing.T) {
	b := newBackend(t)
	s, err := b.Open("op-0")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Get([]byte("a")); ok || err != nil {
		t.Fatalf("Get on an empty store: ok=%v err=%v", ok, err)
	}
	for _, k := range []string{"k\x01b", "k\x01a", "k\x02a", "j\xff"} {
		if err := s.Put([]byte(k), []byte("v-"+k)); err != nil {
			t.Fatal(err)
		}
	}
	v, ok, err := s.Get([]byte("k\x01a"))
	if err != nil || !ok || string(v) != "v-k\x01a" {
		t.Fatalf("Get = %q %v %v", v, ok, err)
	}
	if err := s.Delete([]byte("k\x01b")); err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := s.Scan([]byte("k\x01"), func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[k\x01a=v-k\x01a]" {
		t.Fatalf("Scan(k\\x01) = %q", got)
	}
	got = nil
	_ = s.Scan([]byte("k"), func(k, v []byte) bool { got = append(got, string(k)); return true })
	if fmt.Sprint(got) != "[k\x01a k\x02a]" {
		t.Fatalf("Scan(k) = %q", got)
	}
	// a prefix of 0xff bytes has no upper bound
	got = nil
	_ = s.Scan([]byte("j\xff"), func(k, v []byte) bool { got = append(got, string(k)); return true })
	if len(got) != 1 {
		t.Fatalf("Scan(j\\xff) = %q", got)
	}
	bt := s.NewBatch()
	_ = bt.Put([]byte("x"), []byte("1"))
	_ = bt.Delete([]byte("k\x01a"))
	if bt.Len() != 2 {
		t.Fatalf("batch Len = %d", bt.Len())
	}
	if err := bt.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Get([]byte("k\x01a")); ok {
		t.Fatal("batch delete not applied")
	}
	if v, ok, _ := s.Get([]byte("x")); !ok || string(v) != "1" {
		t.Fatalf("batch put: %q %v", v, ok)
	}
}

func TestStoresAreSeparateNamespaces(t *testing.T) {
	b := newBackend(t)
	s1, _ := b.Open("op")
	s2, _ := b.Open("op")
	if s1.Dir() == s2.Dir() {
		t.Fatal("two stores share a directory")
	}
	_ = s1.Put([]byte("k"), []byte("1"))
	if _, ok, _ := s2.Get([]byte("k")); ok {
		t.Fatal("a key of one store is seen in another")
	}
}

// TestCheckpointRestore: a checkpoint holds the state as it was when it
// was taken (later writes are not in it), a store opened from it has
// that state, and writing to the restored store leaves the checkpoint
// unchanged (a second restore sees the same state again).
func TestCheckpointRestore(t *testing.T) {
	b := newBackend(t)
	s, _ := b.Open("op")
	for i := 0; i < 5000; i++ {
		_ = s.Put([]byte(fmt.Sprintf("key-%05d", i)), []byte(fmt.Sprintf("val-%d", i)))
	}
	ck := filepath.Join(t.TempDir(), "ck")
	if err := s.Checkpoint(ck); err != nil {
		t.Fatal(err)
	}
	_ = s.Put([]byte("key-00001"), []byte("changed"))
	_ = s.Put([]byte("later"), []byte("x"))
	for round := 0; round < 2; round++ {
		r, err := b.OpenFrom("restored", ck)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok, _ := r.Get([]byte("key-00001")); !ok || string(v) != "val-1" {
			t.Fatalf("round %d: restored key-00001 = %q %v", round, v, ok)
		}
		if _, ok, _ := r.Get([]byte("later")); ok {
			t.Fatalf("round %d: a write after the checkpoint is in it", round)
		}
		n := 0
		_ = r.Scan([]byte("key-"), func(k, v []byte) bool { n++; return true })
		if n != 5000 {
			t.Fatalf("round %d: restored %d keys, want 5000", round, n)
		}
		_ = r.Put([]byte("key-00001"), []byte("written after restore"))
		_ = r.Delete([]byte("key-00002"))
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBackendCloseRemovesWorkingDir(t *testing.T) {
	root := t.TempDir()
	b, err := NewBackend("job", Options{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := b.Open("op")
	_ = s.Put([]byte("k"), []byte("v"))
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(b.Dir()); !os.IsNotExist(err) {
		t.Fatalf("working directory left after Close: %v", err)
	}
	if _, err := b.Open("late"); err == nil {
		t.Fatal("Open after Close succeeded")
	}
}

func TestOpenFromMissingCheckpoint(t *testing.T) {
	b := newBackend(t)
	missing := filepath.Join(t.TempDir(), "nope")
	_, err := b.OpenFrom("op", missing)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("error does not name the directory: %v", err)
	}
}

// A checkpoint whose SST file was damaged on disk is refused when it is
// restored, with an error naming the file, instead of a compaction in the
// background ending the whole process later.
func TestOpenFromDamagedSST(t *testing.T) {
	b := newBackend(t)
	s, _ := b.Open("op")
	for i := 0; i < 20000; i++ {
		_ = s.Put([]byte(fmt.Sprintf("key-%05d", i)), []byte(fmt.Sprintf("a value long enough to fill blocks %d", i)))
	}
	ck := filepath.Join(t.TempDir(), "ck")
	if err := s.Checkpoint(ck); err != nil {
		t.Fatal(err)
	}
	ssts, _ := filepath.Glob(filepath.Join(ck, "*.sst"))
	if len(ssts) == 0 {
		t.Fatal("the checkpoint holds no SST file")
	}
	data, err := os.ReadFile(ssts[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := len(data) / 3; i < len(data)/3+8; i++ {
		data[i] ^= 0xff
	}
	if err := os.WriteFile(ssts[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := b.OpenFrom("restored", ck)
	if err == nil {
		_ = r.Close()
		t.Fatal("a damaged SST file was restored")
	}
	msg := err.Error()
	if !strings.Contains(msg, ssts[0]) || !strings.HasPrefix(msg, "restoring state from "+ck+": ") {
		t.Fatalf("error does not name the checkpoint's file %s: %v", ssts[0], err)
	}
	if strings.Contains(msg, "\n") || strings.Contains(msg, b.Dir()) || !strings.Contains(msg, "checksum mismatch") {
		t.Fatalf("want one line naming the damage, not the working copy %s: %q", b.Dir(), msg)
	}
}
