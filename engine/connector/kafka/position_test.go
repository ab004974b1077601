package kafka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// produceTo writes values to the partitions of topic (value i to
// partition parts[i]).
func produceTo(t *testing.T, bs, topic string, parts []int32, vals []string) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(bs), kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for i, v := range vals {
		if err := cl.ProduceSync(context.Background(), &kgo.Record{Partition: parts[i], Value: []byte(v)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
}

var posTypes = []*types.DataType{types.IntType(), types.IntType().NotNull(), types.BigIntType().NotNull()}

// posSource is a kafka table of v INT read with its partition and offset.
func posSource(t *testing.T, bs string, extra ...string) *Source {
	t.Helper()
	o := map[string]string{"connector": "kafka", "topic": "ev", "properties.bootstrap.servers": bs, "format": "json",
		"scan.startup.mode": "earliest-offset", "properties.fetch.max.wait.ms": "20"}
	for i := 0; i+1 < len(extra); i += 2 {
		o[extra[i]] = extra[i+1]
	}
	src, err := Factory{}.CreateSource(ctxFor(&types.Schema{Columns: []types.Column{{Name: "v", Type: types.IntType()}}}, o))
	if err != nil {
		t.Fatal(err)
	}
	return src.(*Source)
}

var posSpec = connector.ReadSpec{Columns: []int{0}, Metadata: []string{MetaPartition, MetaOffset}}

// readRows reads n rows (or to the end or an error, within 20 s) and
// returns them as "partition/offset=v", and the error that ended the read.
func readRows(t *testing.T, r connector.Reader, n int) ([]string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out []string
	for n <= 0 || len(out) < n {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		for _, row := range b.Rows(posTypes) {
			out = append(out, fmt.Sprintf("%v/%v=%v", row.Values[1], row.Values[2], row.Values[0]))
		}
	}
	return out, nil
}

func vals(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf(`{"v": %d}`, i))
	}
	return out
}

func partsOf(n int, p int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = p
	}
	return out
}

// TestResumeInstanceAtOffsets: an instance reader of two partitions
// resumed at its position reads exactly the records after it, in each
// partition; records fetched but not returned before the checkpoint are
// read again.
func TestResumeInstanceAtOffsets(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"ev": 2})
	produceTo(t, bs, "ev", partsOf(5, 0), vals(0, 5))
	produceTo(t, bs, "ev", partsOf(5, 1), vals(100, 105))
	src := posSource(t, bs)
	ctx := context.Background()
	splits, err := src.Splits(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, err := src.OpenInstance(ctx, splits, 0, 1, posSpec)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	// One batch: one partition's records.
	first, err := readRows(t, a, 1)
	if err != nil || len(first) == 0 {
		t.Fatalf("first batch %v, %v", first, err)
	}
	pos, err := a.(connector.PositionReader).Position()
	if err != nil {
		t.Fatal(err)
	}
	var p position
	if err := json.Unmarshal(pos, &p); err != nil || len(p.Partitions) != 2 {
		t.Fatalf("position %s: %v", pos, err)
	}
	// The partition returned is at 5, the other at 0 even if fetched.
	byName := map[string]int64{}
	for _, o := range p.Partitions {
		byName[Partition{o.Topic, o.Partition}.String()] = o.Next
	}
	done := strings.SplitN(first[0], "/", 2)[0]
	other := map[string]string{"0": "ev-1", "1": "ev-0"}[done]
	if byName["ev-"+done] != int64(len(first)) || byName[other] != 0 {
		t.Fatalf("position %s after the rows of partition %s", pos, done)
	}
	produceTo(t, bs, "ev", partsOf(3, 0), vals(5, 8))
	produceTo(t, bs, "ev", partsOf(3, 1), vals(105, 108))
	left := 16 - len(first)
	restA, err := readRows(t, a, left)
	if err != nil {
		t.Fatal(err)
	}
	b, err := src.OpenInstanceAt(ctx, splits, 0, 1, posSpec, pos)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	restB, err := readRows(t, b, left)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(restA)
	sort.Strings(restB)
	if strings.Join(restA, " ") != strings.Join(restB, " ") {
		t.Fatalf("resumed rows %v, want %v", restB, restA)
	}
	// Every record but those returned before the cut, once.
	seen := map[string]bool{}
	for _, r := range first {
		seen[r] = true
	}
	var want []string
	for i := 0; i < 8; i++ {
		for _, r := range []string{fmt.Sprintf("0/%d=%d", i, i), fmt.Sprintf("1/%d=%d", i, 100+i)} {
			if !seen[r] {
				want = append(want, r)
			}
		}
	}
	sort.Strings(want)
	if got := strings.Join(restB, " "); got != strings.Join(want, " ") {
		t.Fatalf("resumed rows %s, want %s", got, strings.Join(want, " "))
	}
}

// TestResumeBoundedRead: a bounded read resumed at its position stops at
// the saved stop offsets (not the latest offsets of the resume), and a bad
// message after the cut fails both runs at the same offset.
func TestResumeBoundedRead(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"ev": 1})
	produceTo(t, bs, "ev", partsOf(4, 0), vals(0, 4))
	src := posSource(t, bs, "scan.bounded.mode", "latest-offset")
	ctx := context.Background()
	splits, _ := src.Splits(ctx)
	a, err := src.OpenInstance(ctx, splits, 0, 1, posSpec)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if rows, err := readRows(t, a, 4); err != nil || len(rows) != 4 {
		t.Fatalf("first rows %v, %v", rows, err)
	}
	pos, _ := a.(connector.PositionReader).Position()
	if !strings.Contains(string(pos), `"next":4,"stop":4`) {
		t.Fatalf("position %s", pos)
	}
	produceTo(t, bs, "ev", partsOf(2, 0), []string{`{"v": 4}`, `{"v": "bad"`})
	b, err := src.OpenInstanceAt(ctx, splits, 0, 1, posSpec, pos)
	if err != nil {
		t.Fatal(err)
	}
	if rows, err := readRows(t, b, 0); err != nil || len(rows) != 0 {
		t.Fatalf("resumed bounded read: %v, %v; want nothing (the stop offset is saved)", rows, err)
	}
	b.Close()

	// A new read up to the bad message, cut after the first batch.
	src2 := posSource(t, bs, "scan.bounded.mode", "latest-offset")
	a2, err := src2.OpenInstance(ctx, splits, 0, 1, posSpec)
	if err != nil {
		t.Fatal(err)
	}
	defer a2.Close()
	rowsA, errA := readRows(t, a2, 0)
	if errA == nil {
		t.Fatalf("rows %v without the bad message's error", rowsA)
	}
	// Resume at offset 4 (a position as the reader saves it after its
	// first four rows).
	at := []byte(`{"version":1,"instance":0,"parallelism":1,"partitions":[{"topic":"ev","partition":0,"next":4,"stop":6}]}`)
	b2, err := src2.OpenInstanceAt(ctx, splits, 0, 1, posSpec, at)
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	rowsB, errB := readRows(t, b2, 0)
	var de *connector.DataError
	if fmt.Sprint(errA) != fmt.Sprint(errB) || !errors.As(errB, &de) || de.File != "topic 'ev' partition 0 offset 5" {
		t.Fatalf("resumed: %v, %v; uninterrupted: %v", rowsB, errB, errA)
	}
}

func TestResumeBadPositions(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"ev": 2})
	src := posSource(t, bs)
	ctx := context.Background()
	splits, _ := src.Splits(ctx)
	good := []byte(`{"version":1,"instance":0,"parallelism":2,"partitions":[]}`)
	// Which partition instance 0 of 2 owns.
	mine, theirs := Partition{"ev", 0}, Partition{"ev", 1}
	if owner("ev", 0, 2) != 0 {
		mine, theirs = theirs, mine
	}
	prefix := "table `cat`.`db`.`t`: reader 1 of 2: cannot resume at the checkpoint's position: "
	for _, c := range []struct {
		name string
		pos  string
		par  int
		want string
	}{
		{"corrupt", "garbage", 2, prefix + "the position is corrupt"},
		{"version", `{"version":3}`, 2, prefix + "the position has version 3; this program reads version 1"},
		{"parallelism", string(good), 3, "table `cat`.`db`.`t`: reader 1 of 3: cannot resume at the checkpoint's position: the position is of reader 1 of 2 (the parallelism of a Kafka source cannot change across a restore)"},
		{"not owned", fmt.Sprintf(`{"version":1,"instance":0,"parallelism":2,"partitions":[{"topic":"ev","partition":%d,"next":1,"stop":-1}]}`, theirs.Partition), 2,
			prefix + "partition " + theirs.String() + " is not this reader's"},
		{"negative offset", fmt.Sprintf(`{"version":1,"instance":0,"parallelism":2,"partitions":[{"topic":"ev","partition":%d,"next":-3,"stop":-1}]}`, mine.Partition), 2,
			prefix + "the position is corrupt (partition " + mine.String() + " at offset -3, stop -1)"},
	} {
		r, err := src.OpenInstanceAt(ctx, splits, 0, c.par, posSpec, []byte(c.pos))
		if err == nil {
			r.Close()
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// A single partition's reader and an instance's do not share positions.
	if _, err := src.OpenAt(ctx, splits[0], posSpec, good); err == nil || !strings.Contains(err.Error(), "partition reader: cannot resume at the checkpoint's position: the position is of another kind of reader") {
		t.Errorf("kind: %v", err)
	}
}
