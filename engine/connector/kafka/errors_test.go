package kafka_test

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestMalformedMessageFailsWithLocation(t *testing.T) {
	bs := broker(t, map[string]int32{"bad": 1, "badk": 1})
	produce(t, bs, "bad", rec{val: `{"v":1}`}, rec{val: `{"v":"x"`}, rec{val: `{"v":3}`})
	e := env(t, false)
	exec(t, e, fmt.Sprintf(`CREATE TABLE bad (v INT) WITH ('connector' = 'kafka', 'topic' = 'bad',
		'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, bs))
	_, err := tryQuery(e, "SELECT * FROM bad")
	if err == nil || !strings.Contains(err.Error(), "topic 'bad' partition 0 offset 1: cannot decode the message value:") {
		t.Fatalf("error %v", err)
	}
	// skipped with value.json.ignore-parse-errors, and counted
	exec(t, e, fmt.Sprintf(`CREATE TABLE lenient (v INT) WITH ('connector' = 'kafka', 'topic' = 'bad',
		'properties.bootstrap.servers' = '%s', 'value.format' = 'json', 'value.json.ignore-parse-errors' = 'true',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, bs))
	same(t, "lenient", query(t, e, "SELECT * FROM lenient"), []string{"+I[1]", "+I[3]"})
	// the key part is named
	produce(t, bs, "badk", rec{key: `{"k":1}`, val: `{"v":1}`})
	exec(t, e, fmt.Sprintf(`CREATE TABLE badkey (k INT, v INT) WITH ('connector' = 'kafka', 'topic' = 'badk',
		'properties.bootstrap.servers' = '%s', 'key.format' = 'json', 'key.fields' = 'k', 'value.format' = 'json',
		'value.fields-include' = 'EXCEPT_KEY', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, bs))
	produce(t, bs, "badk", rec{key: "not json", val: `{"v":4}`})
	_, err = tryQuery(e, "SELECT * FROM badkey")
	if err == nil || !strings.Contains(err.Error(), "topic 'badk' partition 0 offset 1: cannot decode the message key:") {
		t.Fatalf("error %v", err)
	}
}

func TestMissingTopic(t *testing.T) {
	bs := broker(t, map[string]int32{"there": 1})
	e := env(t, false)
	exec(t, e, fmt.Sprintf(`CREATE TABLE t (v INT) WITH ('connector' = 'kafka', 'topic' = 'nowhere',
		'properties.bootstrap.servers' = '%s', 'format' = 'json', 'scan.bounded.mode' = 'latest-offset')`, bs))
	_, err := tryQuery(e, "SELECT * FROM t")
	if err == nil || !strings.Contains(err.Error(), "topic 'nowhere' does not exist on the Kafka brokers at '"+bs+"'") {
		t.Fatalf("error %v", err)
	}
}

func TestUnreachableBroker(t *testing.T) {
	// a port nobody listens on
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	e := env(t, false)
	exec(t, e, fmt.Sprintf(`CREATE TABLE t (v INT) WITH ('connector' = 'kafka', 'topic' = 'x',
		'properties.bootstrap.servers' = '%s', 'format' = 'json', 'scan.bounded.mode' = 'latest-offset',
		'properties.default.api.timeout.ms' = '1500')`, addr))
	done := make(chan error, 1)
	go func() { _, err := tryQuery(e, "SELECT * FROM t"); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "Kafka brokers at '"+addr+"'") {
			t.Fatalf("error %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no error within 30 s")
	}
}

func TestAuthorizationAndAuthentication(t *testing.T) {
	bs := broker(t, map[string]int32{"secret": 1},
		kfake.EnableSASL(), kfake.EnableACLs(), kfake.Superuser("PLAIN", "admin", "admin-secret"),
		kfake.User("PLAIN", "guest", "guest-secret"))
	e := env(t, false)
	ddl := `CREATE TABLE %s (v INT) WITH ('connector' = 'kafka', 'topic' = 'secret',
		'properties.bootstrap.servers' = '%s', 'format' = 'json', 'scan.bounded.mode' = 'latest-offset',
		'scan.startup.mode' = 'earliest-offset', 'properties.default.api.timeout.ms' = '1500',
		'properties.security.protocol' = 'SASL_PLAINTEXT', 'properties.sasl.mechanism' = 'PLAIN',
		'properties.sasl.jaas.config' = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="%s" password="%s";')`
	exec(t, e, fmt.Sprintf(ddl, "asadmin", bs, "admin", "admin-secret"))
	exec(t, e, fmt.Sprintf(ddl, "asguest", bs, "guest", "guest-secret"))
	exec(t, e, fmt.Sprintf(ddl, "wrongpw", bs, "admin", "nope"))
	same(t, "admin reads", query(t, e, "SELECT * FROM asadmin"), nil)
	for name, want := range map[string]string{
		"asguest": "not authorized",
		"wrongpw": "SASL authentication",
	} {
		done := make(chan error, 1)
		go func() { _, err := tryQuery(e, "SELECT * FROM "+name); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %v, want %q", name, err, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: no error within 30 s", name)
		}
	}
}

func TestOptionValidation(t *testing.T) {
	base := "'properties.bootstrap.servers' = '127.0.0.1:9', "
	cases := []struct{ with, want string }{
		{`'connector' = 'kafka', 'format' = 'json'`, "Either 'topic' or 'topic-pattern' must be set."},
		{`'connector' = 'kafka', 'topic' = 'a', 'topic-pattern' = 'b', 'format' = 'json'`, "Option 'topic' and 'topic-pattern' shouldn't be set together."},
		{`'connector' = 'kafka', 'topic' = 'a'`, "Could not find required option 'value.format' (or 'format')."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'key.fields' = 'v'`, "The option 'key.fields' can only be declared if a key format is defined using 'key.format'."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'key.format' = 'json'`, "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'key.format' = 'json', 'key.fields' = 'nope'`, "Could not find the field 'nope' in the table schema for usage in the key format."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'key.format' = 'json', 'key.fields' = 'v', 'key.fields-prefix' = 'k_'`, "All fields in 'key.fields' must be prefixed with 'k_' when option 'key.fields-prefix' is set but field 'v' is not prefixed."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'key.fields-prefix' = 'k_'`, "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'key.format' = 'json', 'key.fields' = 'v', 'key.fields-prefix' = 'k_', 'value.fields-include' = 'EXCEPT_KEY'`, "All fields in 'key.fields' must be prefixed with 'k_' when option 'key.fields-prefix' is set but field 'v' is not prefixed."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'scan.startup.mode' = 'timestamp'`, "'scan.startup.timestamp-millis' is required in 'timestamp' startup mode but missing."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'scan.startup.mode' = 'specific-offsets'`, "'scan.startup.specific-offsets' is required in 'specific-offsets' startup mode but missing."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'scan.startup.mode' = 'specific-offsets', 'scan.startup.specific-offsets' = 'partition:0;offset:1'`, "Invalid properties 'scan.startup.specific-offsets' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is 'partition:0;offset:1'."},
		{`'connector' = 'kafka', 'topic' = 'a;b', 'format' = 'json', 'scan.startup.mode' = 'specific-offsets', 'scan.startup.specific-offsets' = 'partition:0,offset:1'`, "Currently Kafka source only supports specific offset for single topic."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'scan.bounded.mode' = 'timestamp'`, "'scan.bounded.timestamp-millis' is required in 'timestamp' bounded mode but missing."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'scan.startup.mode' = 'newest'`, "Could not parse value 'newest' for key 'scan.startup.mode'."},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'properties.ssl.truststore.type' = 'JKS', 'properties.security.protocol' = 'SSL'`, "Riffle reads PEM stores only"},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'properties.sasl.kerberos.service.name' = 'kafka'`, "properties.sasl.kerberos.service.name"},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'properties.security.protocol' = 'SASL_SSL', 'properties.sasl.mechanism' = 'GSSAPI', 'properties.sasl.jaas.config' = 'x required username="u" password="p";'`, "unsupported SASL mechanism 'GSSAPI'"},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'scan.fancy' = '1'`, "unsupported options found for 'kafka': scan.fancy"},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'yaml'`, "could not find any format factory for identifier 'yaml'"},
		{`'connector' = 'upsert-kafka', 'topic' = 'a', 'key.format' = 'json', 'value.format' = 'json'`, "'upsert-kafka' tables require to define a PRIMARY KEY constraint."},
		{`'connector' = 'upsert-kafka', 'topic' = 'a', 'value.format' = 'json'`, "missing required option 'key.format'"},
	}
	for i, c := range cases {
		e := env(t, true)
		ddl := fmt.Sprintf("CREATE TABLE t%d (v INT) WITH (%s%s)", i, base, c.with)
		if _, err := e.ExecuteSQL(ddl); err != nil {
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s\n: %v\nwant %q", ddl, err, c.want)
			}
			continue
		}
		_, err := e.ExecuteSQL(fmt.Sprintf("EXPLAIN SELECT * FROM t%d", i))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\n: %v\nwant %q", ddl, err, c.want)
		}
	}
	// sink-side checks
	sinkCases := []struct{ with, want string }{
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'sink.partitioner' = 'com.example.MyPartitioner'`, "Could not find and instantiate partitioner class 'com.example.MyPartitioner'"},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'x'`, "but checkpointing is off: set 'execution.checkpointing.interval'"},
		{`'connector' = 'kafka', 'topic' = 'a;b', 'format' = 'json'`, "a Kafka sink writes to one topic"},
		{`'connector' = 'kafka', 'topic-pattern' = 'a.*', 'format' = 'json'`, "option 'topic-pattern' cannot be used by a sink"},
		{`'connector' = 'kafka', 'topic' = 'a', 'format' = 'json', 'key.format' = 'json', 'key.fields' = 'v', 'sink.partitioner' = 'round-robin'`, "Currently 'round-robin' partitioner only works when option 'key.fields' is not specified."},
		{`'connector' = 'upsert-kafka', 'topic' = 'a', 'key.format' = 'json', 'value.format' = 'json', 'sink.buffer-flush.max-rows' = '10'`, "'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to be greater than zero together to enable sink buffer flushing."},
	}
	for i, c := range sinkCases {
		e := env(t, true)
		pk := ""
		if strings.Contains(c.with, "upsert") {
			pk = ", PRIMARY KEY (v) NOT ENFORCED"
		}
		exec(t, e, fmt.Sprintf("CREATE TABLE s%d (v INT NOT NULL%s) WITH (%s%s)", i, pk, base, c.with))
		_, err := e.ExecuteSQL(fmt.Sprintf("EXPLAIN INSERT INTO s%d VALUES (1)", i))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("sink %s\n: %v\nwant %q", c.with, err, c.want)
		}
	}
}

// TestGroupOffsetsWaitForTheCoordinator: a fresh broker answers the first
// coordinator look-ups of a group with COORDINATOR_NOT_AVAILABLE while it
// creates __consumer_offsets (seen on a real Kafka 4.4 broker); the look-up
// is retried within the API timeout instead of failing the query.
func TestGroupOffsetsWaitForTheCoordinator(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "ev"),
		kfake.ListenFn(func(network, _ string) (net.Listener, error) { return net.Listen(network, "127.0.0.1:0") }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	bs := strings.Join(c.ListenAddrs(), ",")
	produce(t, bs, "ev", rec{val: `{"v":1}`}, rec{val: `{"v":2}`})
	unavailable := 0
	c.ControlKey(int16(kmsg.FindCoordinator), func(kreq kmsg.Request) (kmsg.Response, error, bool) {
		if unavailable == 3 {
			return nil, nil, false
		}
		c.KeepControl()
		unavailable++
		req := kreq.(*kmsg.FindCoordinatorRequest)
		resp := req.ResponseKind().(*kmsg.FindCoordinatorResponse)
		code := kerr.CoordinatorNotAvailable.Code
		resp.ErrorCode = code
		keys := req.CoordinatorKeys
		if len(keys) == 0 {
			keys = []string{req.CoordinatorKey}
		}
		for _, k := range keys {
			rc := kmsg.NewFindCoordinatorResponseCoordinator()
			rc.Key, rc.ErrorCode, rc.NodeID = k, code, -1
			resp.Coordinators = append(resp.Coordinators, rc)
		}
		return resp, nil, true
	})
	e := env(t, false)
	exec(t, e, fmt.Sprintf(`CREATE TABLE ev (v INT) WITH ('connector' = 'kafka', 'topic' = 'ev',
		'properties.bootstrap.servers' = '%s', 'format' = 'json', 'properties.group.id' = 'fresh',
		'properties.auto.offset.reset' = 'earliest', 'scan.bounded.mode' = 'latest-offset')`, bs))
	same(t, "rows", query(t, e, "SELECT * FROM ev"), []string{"+I[1]", "+I[2]"})
	if unavailable != 3 {
		t.Fatalf("%d offset fetches answered COORDINATOR_NOT_AVAILABLE, want 3", unavailable)
	}
}

// TestSinkMissingTopicAndUnreachableBroker: a sink with a known topic
// fails when it opens with the source's messages: a missing topic is
// named (Riffle never creates topics), a refused connection is said to be
// one, instead of the first write's UNKNOWN_TOPIC_OR_PARTITION or a flush
// that waited for the API timeout and reported "no answer".
func TestSinkMissingTopicAndUnreachableBroker(t *testing.T) {
	bs := broker(t, map[string]int32{"there": 1})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	e := env(t, false)
	for name, c := range map[string]struct{ bs, want string }{
		"missing": {bs, "topic 'nowhere' does not exist on the Kafka brokers at '" + bs + "'"},
		"refused": {closed, "cannot reach the Kafka brokers at '" + closed + "'"},
	} {
		exec(t, e, fmt.Sprintf(`CREATE TABLE %s (v INT) WITH ('connector' = 'kafka', 'topic' = 'nowhere',
			'properties.bootstrap.servers' = '%s', 'format' = 'json', 'properties.default.api.timeout.ms' = '20000')`, name, c.bs))
		res, err := e.ExecuteSQL("INSERT INTO " + name + " VALUES (1)")
		if err == nil {
			err = res.Wait(30 * time.Second)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

// max.partition.fetch.bytes and fetch.max.bytes bound the fetches (a
// small bound reads the same rows in more fetches); a bad value fails
// with the property's name.
func TestFetchSizeProperties(t *testing.T) {
	bs := broker(t, map[string]int32{"sized": 1})
	var recs []rec
	var want []string
	for i := 0; i < 50; i++ {
		recs = append(recs, rec{val: fmt.Sprintf(`{"v":%d,"pad":"%s"}`, i, strings.Repeat("x", 200))})
		want = append(want, fmt.Sprintf("+I[%d]", i))
	}
	produce(t, bs, "sized", recs...)
	e := env(t, false)
	for _, c := range []struct{ props, err string }{
		{`'properties.max.partition.fetch.bytes' = '1024', 'properties.fetch.max.bytes' = '2048'`, ""},
		{`'properties.max.partition.fetch.bytes' = '8388608'`, ""},
		{`'properties.max.partition.fetch.bytes' = '0'`, "invalid 'properties.max.partition.fetch.bytes' value '0': expected a positive number of bytes"},
		{`'properties.fetch.max.bytes' = 'lots'`, "invalid 'properties.fetch.max.bytes' value 'lots': expected a positive number of bytes"},
	} {
		exec(t, e, `DROP TABLE IF EXISTS sized`)
		exec(t, e, fmt.Sprintf(`CREATE TABLE sized (v INT) WITH ('connector' = 'kafka', 'topic' = 'sized',
			'properties.bootstrap.servers' = '%s', 'format' = 'json', %s,
			'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, bs, c.props))
		got, err := tryQuery(e, "SELECT v FROM sized")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.props, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.props, err)
		}
		same(t, c.props, got, want)
	}
}
