// Package nexflink runs the Nexmark queries on real Apache Flink and on
// Riffle over the same recorded events, so both engines' events per
// second per core can be compared in one run.
//
// The events are Riffle's Nexmark generator's (the 'nexmark' connector,
// as `riffle bench nexmark` runs it), written once as JSON into a Kafka
// topic with Partitions partitions (record i goes to partition i mod
// Partitions, so each partition is in event-time order). Both engines
// then read that topic through their 'kafka' connector, format 'json',
// from the earliest to the latest offset (bounded, so each job ends),
// into a table datagen with the nexmark suite's columns
// (nexmark.EventColumns: event_type, the person/auction/bid ROWs, the
// computed dateTime and its watermark), under the suite's person, auction
// and bid views and the queries' texts of nexmark/queries.go, each into
// its blackhole sink. Same bytes, same connector kind, same format, both
// bounded: what differs is the engine.
//
// interop/nexflinkbench is the benchmark command; scripts/bench-nexmark-flink.sh
// (make bench-nexmark-flink) starts the servers it needs and runs it.
package nexflink

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/interop"
	"github.com/riffle-sql/riffle/nexmark"
)

// Rate is the generator's first-event.rate, as `riffle bench nexmark`
// uses it: 10,000,000 events per second of event time.
const Rate = 10_000_000

// BaseTime is the event time of the first event.
var BaseTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// Topic names the topic holding n events in p partitions.
func Topic(n int64, p int) string { return fmt.Sprintf("riffle-nexmark-%d-p%d", n, p) }

// SourceDDL is the CREATE TABLE statement of the table datagen over the
// topic, for both engines: nexmark.EventColumns over 'kafka', format
// 'json', read from the earliest offset to the latest one. Both consumers
// fetch up to FetchPartitionBytes of a partition at a time.
func SourceDDL(bootstrap, topic string) string {
	return Quoted(`CREATE TABLE datagen (
  ` + nexmark.EventColumns + `
) WITH (
  'connector' = 'kafka',
  'topic' = '` + topic + `',
  'properties.bootstrap.servers' = '` + bootstrap + `',
  'properties.group.id' = 'riffle-nexflink',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'properties.max.partition.fetch.bytes' = '` + fmt.Sprint(FetchPartitionBytes) + `',
  'format' = 'json'
)`)
}

// FetchPartitionBytes is the consumers' max.partition.fetch.bytes: 8 MiB
// instead of Kafka's 1 MiB. The topic is written in record batches of up
// to 1 MB (franz-go's producer), and a broker answers a fetch with whole
// batches up to the bound plus the cut start of the next one, which the
// consumer drops: at 1 MiB Riffle's consumer read 1.82 GB for the 4 M-event
// topic's 1.38 GB, at 8 MiB 1.44 GB. Flink's Java consumer gets the same
// property.
const FetchPartitionBytes = 8 << 20

// EnsureEvents makes Topic(n, partitions) hold n events: a topic of that
// name already holding n records is kept (created is false); otherwise it
// is (re)created and Riffle's generator writes the events into it, one
// writer, round-robin over the partitions, uncompressed (so neither
// engine's time includes decompressing batches).
func EnsureEvents(ctx context.Context, k interop.Kafka, n int64, partitions int) (topic string, created bool, err error) {
	if n <= 0 || partitions <= 0 {
		return "", false, fmt.Errorf("nexflink: events (%d) and partitions (%d) must be positive", n, partitions)
	}
	topic = Topic(n, partitions)
	c, err := k.Client()
	if err != nil {
		return "", false, err
	}
	defer c.Close()
	ends, err := kadm.NewClient(c).ListEndOffsets(ctx, topic)
	if err == nil {
		var total int64
		found := 0
		for _, o := range ends[topic] {
			if o.Err == nil {
				total += o.Offset
				found++
			}
		}
		if found > 0 {
			if total == n && found == partitions {
				return topic, false, nil
			}
			if err := k.DeleteTopic(ctx, topic); err != nil {
				return "", false, err
			}
		}
	}
	// Deletion is asynchronous on the broker: retry until the name is free.
	deadline := time.Now().Add(30 * time.Second)
	for {
		err = k.CreateTopic(ctx, topic, int32(partitions), nil)
		if err == nil || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return "", false, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	if err != nil {
		return "", false, err
	}
	if err := writeEvents(ctx, k.Bootstrap, topic, n); err != nil {
		return "", false, err
	}
	return topic, true, nil
}

// writeEvents runs Riffle's generator into the topic.
func writeEvents(ctx context.Context, bootstrap, topic string, n int64) error {
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		return err
	}
	conf := env.GetConfig()
	conf.Set("parallelism.default", "1")
	conf.Set("table.local-time-zone", "UTC")
	conf.Set("table.dml-sync", "true")
	stmts := []string{
		fmt.Sprintf(`CREATE TABLE gen (
  %s
) WITH (
  'connector' = 'nexmark',
  'first-event.rate' = '%d',
  'next-event.rate' = '%d',
  'events.num' = '%d',
  'person.proportion' = '1',
  'auction.proportion' = '3',
  'bid.proportion' = '46',
  'base-time' = '%d'
)`, nexmark.EventColumns, Rate, Rate, n, BaseTime.UnixMilli()),
		`CREATE TABLE events (
  event_type INT,
  person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR,
             dateTime TIMESTAMP(3), extra VARCHAR>,
  auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
              dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>
) WITH (
  'connector' = 'kafka',
  'topic' = '` + topic + `',
  'properties.bootstrap.servers' = '` + bootstrap + `',
  'sink.partitioner' = 'round-robin',
  'properties.compression.type' = 'none',
  'format' = 'json'
)`,
		`INSERT INTO events SELECT event_type, person, auction, bid FROM gen`,
	}
	for _, s := range stmts {
		if _, err := env.ExecuteSQLContext(ctx, s); err != nil {
			return fmt.Errorf("nexflink: writing the events: %w", err)
		}
	}
	return nil
}

// dateTimeWord finds dateTime, quoted or not.
var dateTimeWord = regexp.MustCompile("`?\\bdateTime\\b`?")

// Quoted returns a statement with every unquoted dateTime in back quotes,
// as the nexmark repository writes it: Flink's parser takes DATETIME for
// a keyword (in a ROW type, for one), Riffle takes either. Both engines
// get the quoted texts.
func Quoted(stmt string) string {
	return dateTimeWord.ReplaceAllStringFunc(stmt, func(m string) string {
		if strings.HasPrefix(m, "`") {
			return m
		}
		return "`dateTime`"
	})
}

// QuotedQuery returns q with Quoted statements.
func QuotedQuery(q nexmark.Query) nexmark.Query {
	out := q
	out.Setup = make([]string, len(q.Setup))
	for i, s := range q.Setup {
		out.Setup[i] = Quoted(s)
	}
	out.Insert = Quoted(q.Insert)
	return out
}
