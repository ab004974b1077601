package interop

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Kafka is a running Apache Kafka broker (one KRaft node, broker and
// controller in one process), as scripts/kafka.sh start reports it in
// endpoints.env.
type Kafka struct {
	Version   string // e.g. "4.4.0"
	Bootstrap string // host:port of the PLAINTEXT listener, e.g. "127.0.0.1:9092"
	Home      string // the installed Kafka: Home/lib holds its jars
	RunDir    string // the broker's run folder (conf/, data/, log/, kafka.pid); empty when only KAFKA_BOOTSTRAP is known
}

// KafkaFromEnv returns the broker named by the environment variable
// KAFKA_BOOTSTRAP (scripts/interop.sh exports it with KAFKA_VERSION,
// KAFKA_HOME and KAFKA_RUN_DIR), or else the one described by the file
// $KAFKA_RUN_DIR/endpoints.env, or by the default run folder of
// scripts/kafka.sh ($RIFFLE_CACHE/kafka-run). It fails when none is running.
func KafkaFromEnv() (Kafka, error) {
	k := Kafka{
		Version:   os.Getenv("KAFKA_VERSION"),
		Bootstrap: os.Getenv("KAFKA_BOOTSTRAP"),
		Home:      os.Getenv("KAFKA_HOME"),
		RunDir:    os.Getenv("KAFKA_RUN_DIR"),
	}
	if k.Bootstrap != "" {
		return k, nil
	}
	k, err := KafkaFromEnvFile(kafkaRunDir())
	if err != nil {
		return Kafka{}, fmt.Errorf("interop: no running Kafka: KAFKA_BOOTSTRAP is not set and %w (start one with scripts/kafka.sh start)", err)
	}
	return k, nil
}

// KafkaFromEnvFile returns the broker that scripts/kafka.sh started in the
// run folder runDir, as its file runDir/endpoints.env describes it; an
// error when the file is missing (no broker runs there) or names no
// KAFKA_BOOTSTRAP.
func KafkaFromEnvFile(runDir string) (Kafka, error) {
	path := filepath.Join(runDir, "endpoints.env")
	vars, err := readEnvFile(path)
	if err != nil {
		return Kafka{}, err
	}
	k := Kafka{Version: vars["KAFKA_VERSION"], Bootstrap: vars["KAFKA_BOOTSTRAP"],
		Home: vars["KAFKA_HOME"], RunDir: vars["KAFKA_RUN_DIR"]}
	if k.Bootstrap == "" {
		return Kafka{}, fmt.Errorf("%s names no KAFKA_BOOTSTRAP", path)
	}
	if k.RunDir == "" {
		k.RunDir = runDir
	}
	return k, nil
}

// kafkaRunDir is scripts/kafka.sh's run folder: $KAFKA_RUN_DIR, else
// $RIFFLE_CACHE/kafka-run, else ${XDG_CACHE_HOME:-~/.cache}/riffle/kafka-run.
func kafkaRunDir() string {
	if d := os.Getenv("KAFKA_RUN_DIR"); d != "" {
		return d
	}
	return filepath.Join(cacheDir(), "kafka-run")
}

// cacheDir is the scripts' cache folder: $RIFFLE_CACHE, else
// ${XDG_CACHE_HOME:-~/.cache}/riffle.
func cacheDir() string {
	if c := os.Getenv("RIFFLE_CACHE"); c != "" {
		return c
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "riffle")
}

// Client opens a franz-go client on the broker; opts are added after the
// seed brokers (e.g. kgo.ConsumeTopics). The caller closes it.
func (k Kafka) Client(opts ...kgo.Opt) (*kgo.Client, error) {
	all := append([]kgo.Opt{kgo.SeedBrokers(k.Bootstrap), kgo.ClientID("riffle-interop")}, opts...)
	c, err := kgo.NewClient(all...)
	if err != nil {
		return nil, fmt.Errorf("interop: kafka client for %s: %w", k.Bootstrap, err)
	}
	return c, nil
}

// UniqueTopic returns prefix followed by a dash and 12 random hex digits,
// a topic name no other test uses (tests share one broker and never delete
// each other's topics).
func UniqueTopic(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

// CreateTopic creates topic with the given number of partitions, one
// replica each, and topic-level configs (e.g. "cleanup.policy": "compact";
// nil for none), then waits until the broker reports a leader for every
// partition. An existing topic is an error.
func (k Kafka) CreateTopic(ctx context.Context, topic string, partitions int32, configs map[string]string) error {
	if partitions < 1 {
		return fmt.Errorf("interop: topic %q: %d partitions (want at least 1)", topic, partitions)
	}
	c, err := k.Client()
	if err != nil {
		return err
	}
	defer c.Close()
	adm := kadm.NewClient(c)
	var cfg map[string]*string
	if len(configs) > 0 {
		cfg = make(map[string]*string, len(configs))
		for key, v := range configs {
			cfg[key] = &v
		}
	}
	res, err := adm.CreateTopic(ctx, partitions, 1, cfg, topic)
	if err == nil {
		err = res.Err
	}
	if err != nil {
		return fmt.Errorf("interop: create topic %q on %s: %w", topic, k.Bootstrap, err)
	}
	for {
		md, err := adm.Metadata(ctx, topic)
		if err == nil {
			if td, ok := md.Topics[topic]; ok && td.Err == nil && len(td.Partitions) == int(partitions) {
				ready := true
				for _, p := range td.Partitions {
					if p.Leader < 0 || p.Err != nil {
						ready = false
					}
				}
				if ready {
					return nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("interop: topic %q has no leader for every partition yet: %w", topic, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// DeleteTopic deletes topic; a missing topic is an error.
func (k Kafka) DeleteTopic(ctx context.Context, topic string) error {
	c, err := k.Client()
	if err != nil {
		return err
	}
	defer c.Close()
	res, err := kadm.NewClient(c).DeleteTopic(ctx, topic)
	if err == nil {
		err = res.Err
	}
	if err != nil {
		return fmt.Errorf("interop: delete topic %q: %w", topic, err)
	}
	return nil
}

// Produce writes recs to topic and waits until the broker acknowledged every
// one (acks=all, idempotent). A record goes to its Partition field (0 unless
// set: the partitioner is manual, so where each record lands is exact), with
// its Key, Value, Headers and Timestamp (the produce time when zero). A
// record whose Topic is set keeps it. The first failure is returned.
func (k Kafka) Produce(ctx context.Context, topic string, recs ...*kgo.Record) error {
	c, err := k.Client(kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.DefaultProduceTopic(topic),
		kgo.ProducerLinger(0))
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("interop: produce to %q on %s: %w", topic, k.Bootstrap, err)
	}
	return nil
}

// ValueRecords returns one record a value, without key, for partition 0.
func ValueRecords(values ...string) []*kgo.Record {
	recs := make([]*kgo.Record, len(values))
	for i, v := range values {
		recs[i] = &kgo.Record{Value: []byte(v)}
	}
	return recs
}

// Consume reads topic from its earliest offsets until n records came back
// or ctx ends (then it returns the records read so far with ctx's error).
// Records are in offset order within a partition.
func (k Kafka) Consume(ctx context.Context, topic string, n int) ([]*kgo.Record, error) {
	c, err := k.Client(kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var out []*kgo.Record
	for len(out) < n {
		fs := c.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("interop: consume %q: %d of %d records: %w", topic, len(out), n, err)
		}
		var ferr error
		fs.EachError(func(t string, p int32, err error) {
			ferr = errors.Join(ferr, fmt.Errorf("%s[%d]: %w", t, p, err))
		})
		if ferr != nil {
			return out, fmt.Errorf("interop: consume %q: %w", topic, ferr)
		}
		fs.EachRecord(func(r *kgo.Record) { out = append(out, r) })
	}
	return out, nil
}

// Restart stops the broker and starts it again on the same ports with the
// same data (scripts/kafka.sh restart), for tests of a broker that goes away
// under a running query. It needs the run folder and waits for the broker
// to answer again (at most 120 s after it stopped).
func (k Kafka) Restart(ctx context.Context) error {
	if k.RunDir == "" {
		return errors.New("interop: restart Kafka: its run folder is not known (KAFKA_RUN_DIR)")
	}
	root, err := RepoRoot()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, filepath.Join(root, "scripts", "kafka.sh"), "restart")
	cmd.Env = append(os.Environ(), "KAFKA_RUN_DIR="+k.RunDir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("interop: scripts/kafka.sh restart: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
