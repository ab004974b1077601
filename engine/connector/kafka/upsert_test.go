package kafka_test

import (
	"fmt"
	"testing"
	"time"
)

func TestUpsertKafkaSQL(t *testing.T) {
	bs := broker(t, map[string]int32{"src": 1, "counts": 2})
	produce(t, bs, "src",
		rec{val: `{"k":"a"}`}, rec{val: `{"k":"b"}`}, rec{val: `{"k":"a"}`}, rec{val: `{"k":"a"}`})
	e := env(t, true)
	exec(t, e, fmt.Sprintf(`CREATE TABLE src (k STRING) WITH ('connector' = 'kafka', 'topic' = 'src',
		'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, bs))
	exec(t, e, fmt.Sprintf(`CREATE TABLE counts (k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
		'connector' = 'upsert-kafka', 'topic' = 'counts', 'properties.bootstrap.servers' = '%s',
		'key.format' = 'json', 'value.format' = 'json')`, bs))
	res, err := e.ExecuteSQL("INSERT INTO counts SELECT k, COUNT(*) FROM src GROUP BY k")
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Wait(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range consume(t, bs, "counts") {
		got = append(got, fmt.Sprintf("%s -> %s", r.Key, r.Value))
	}
	// one partition per key (the key's hash); -U rows are not written
	same(t, "records", sortedByKey(got), []string{
		`{"k":"a"} -> {"k":"a","n":1}`,
		`{"k":"a"} -> {"k":"a","n":2}`,
		`{"k":"a"} -> {"k":"a","n":3}`,
		`{"k":"b"} -> {"k":"b","n":1}`,
	})
	// a tombstone for b, then read the topic back as an upsert changelog
	produce(t, bs, "counts", rec{p: partitionOf(t, bs, "counts", `{"k":"b"}`), key: `{"k":"b"}`, tomb: true})
	exec(t, e, fmt.Sprintf(`CREATE TABLE counts_in (k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
		'connector' = 'upsert-kafka', 'topic' = 'counts', 'properties.bootstrap.servers' = '%s',
		'key.format' = 'json', 'value.format' = 'json', 'scan.bounded.mode' = 'latest-offset')`, bs))
	rows := query(t, e, "SELECT * FROM counts_in")
	same(t, "changelog of a", only(rows, "a"), []string{"+I[a, 1]", "-U[a, 1]", "+U[a, 2]", "-U[a, 2]", "+U[a, 3]"})
	same(t, "changelog of b", only(rows, "b"), []string{"+I[b, 1]", "-D[b, 1]"})
}
