package kafka

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// DefaultAPITimeout bounds metadata and offset look-ups (Kafka's
// default.api.timeout.ms is 60 s; Riffle uses 30 s so that a wrong
// bootstrap address fails a query in a reasonable time). Set
// 'properties.default.api.timeout.ms' to change it.
const DefaultAPITimeout = 30 * time.Second

// apiTimeout is properties.default.api.timeout.ms (or request.timeout.ms).
func (t *tableOptions) apiTimeout() time.Duration {
	for _, k := range []string{"default.api.timeout.ms", "request.timeout.ms"} {
		if v, ok := t.props[k]; ok {
			if ms, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && ms > 0 {
				return time.Duration(ms) * time.Millisecond
			}
		}
	}
	return DefaultAPITimeout
}

// clientOptions maps properties.* onto franz-go options: bootstrap
// servers, client id, SASL (PLAIN, SCRAM-SHA-256/512 from
// sasl.jaas.config) and TLS (PEM trust and key stores).
func (t *tableOptions) clientOptions() ([]kgo.Opt, error) {
	var seeds []string
	for _, s := range strings.Split(t.props["bootstrap.servers"], ",") {
		if s = strings.TrimSpace(s); s != "" {
			seeds = append(seeds, s)
		}
	}
	if len(seeds) == 0 {
		return nil, t.errorf("option '%s' names no broker", OptBootstrapServers)
	}
	timeout := t.apiTimeout()
	opts := []kgo.Opt{
		kgo.SeedBrokers(seeds...),
		kgo.DialTimeout(min(timeout, 10*time.Second)),
		// retriable errors (a broker restarting) are retried for this long
		// before a request fails
		kgo.RetryTimeout(timeout),
	}
	if id := t.props["client.id"]; id != "" {
		opts = append(opts, kgo.ClientID(id))
	}
	proto := strings.ToUpper(strings.TrimSpace(t.props["security.protocol"]))
	if proto == "" {
		proto = "PLAINTEXT"
	}
	switch proto {
	case "PLAINTEXT":
	case "SSL", "SASL_SSL", "SASL_PLAINTEXT":
	default:
		return nil, t.errorf("unsupported 'properties.security.protocol' value '%s': expected PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL", t.props["security.protocol"])
	}
	if proto == "SSL" || proto == "SASL_SSL" {
		cfg, err := t.tlsConfig()
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.DialTLSConfig(cfg))
	}
	if proto == "SASL_SSL" || proto == "SASL_PLAINTEXT" {
		m, err := t.saslMechanism()
		if err != nil {
			return nil, err
		}
		opts = append(opts, m)
	} else if t.props["sasl.mechanism"] != "" || t.props["sasl.jaas.config"] != "" {
		return nil, t.errorf("'properties.sasl.*' is set but 'properties.security.protocol' is %s; use SASL_PLAINTEXT or SASL_SSL", proto)
	}
	return opts, nil
}

var jaasOption = regexp.MustCompile(`(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"`)

func (t *tableOptions) saslMechanism() (kgo.Opt, error) {
	mech := strings.ToUpper(strings.TrimSpace(t.props["sasl.mechanism"]))
	if mech == "" {
		mech = "GSSAPI" // Kafka's default
	}
	jaas := t.props["sasl.jaas.config"]
	user, pass := "", ""
	for _, m := range jaasOption.FindAllStringSubmatch(jaas, -1) {
		v := strings.ReplaceAll(m[2], `\"`, `"`)
		switch m[1] {
		case "username":
			user = v
		case "password":
			pass = v
		}
	}
	if jaas == "" || user == "" {
		return nil, t.errorf("SASL mechanism %s needs 'properties.sasl.jaas.config' with username=\"...\" and password=\"...\"", mech)
	}
	switch mech {
	case "PLAIN":
		return kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism()), nil
	case "SCRAM-SHA-256":
		return kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha256Mechanism()), nil
	case "SCRAM-SHA-512":
		return kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha512Mechanism()), nil
	}
	return nil, t.errorf("unsupported SASL mechanism '%s' in 'properties.sasl.mechanism': Riffle supports PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512", mech)
}

// tlsConfig builds the TLS configuration from PEM stores: Java's JKS and
// PKCS12 stores are not read (convert them with keytool/openssl).
func (t *tableOptions) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	pemOnly := func(key string) error {
		if v := strings.ToUpper(strings.TrimSpace(t.props[key])); v != "" && v != "PEM" {
			return t.errorf("'properties.%s' = '%s' is not supported: Riffle reads PEM stores only (convert the store to PEM and set it to 'PEM')", key, t.props[key])
		}
		return nil
	}
	if err := pemOnly("ssl.truststore.type"); err != nil {
		return nil, err
	}
	if err := pemOnly("ssl.keystore.type"); err != nil {
		return nil, err
	}
	var trust []byte
	if loc := t.props["ssl.truststore.location"]; loc != "" {
		b, err := os.ReadFile(loc)
		if err != nil {
			return nil, t.errorf("cannot read 'properties.ssl.truststore.location': %v", err)
		}
		trust = b
	} else if c := t.props["ssl.truststore.certificates"]; c != "" {
		trust = []byte(c)
	}
	if trust != nil {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(trust) {
			return nil, t.errorf("the trust store holds no PEM certificate (Riffle reads PEM stores only)")
		}
		cfg.RootCAs = pool
	}
	var certPEM, keyPEM []byte
	if loc := t.props["ssl.keystore.location"]; loc != "" {
		b, err := os.ReadFile(loc)
		if err != nil {
			return nil, t.errorf("cannot read 'properties.ssl.keystore.location': %v", err)
		}
		certPEM, keyPEM = b, b
	} else if c := t.props["ssl.keystore.certificate.chain"]; c != "" {
		certPEM, keyPEM = []byte(c), []byte(t.props["ssl.keystore.key"])
	}
	if certPEM != nil {
		cert, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return nil, t.errorf("cannot load the client certificate and key of the key store (PEM, unencrypted key): %v", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if alg, ok := t.props["ssl.endpoint.identification.algorithm"]; ok && strings.TrimSpace(alg) == "" {
		// verify the chain but not the host name, as Kafka does with an
		// empty algorithm
		roots := cfg.RootCAs
		cfg.InsecureSkipVerify = true
		cfg.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				return errors.New("no server certificate")
			}
			certs := make([]*x509.Certificate, len(raw))
			for i, r := range raw {
				c, err := x509.ParseCertificate(r)
				if err != nil {
					return err
				}
				certs[i] = c
			}
			inter := x509.NewCertPool()
			for _, c := range certs[1:] {
				inter.AddCert(c)
			}
			_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
			return err
		}
	}
	return cfg, nil
}

// newClient creates a franz-go client with the table's properties and the
// extra options.
func (t *tableOptions) newClient(extra ...kgo.Opt) (*kgo.Client, error) {
	opts, err := t.clientOptions()
	if err != nil {
		return nil, err
	}
	cl, err := kgo.NewClient(append(opts, extra...)...)
	if err != nil {
		return nil, t.errorf("cannot create the Kafka client: %v", err)
	}
	return cl, nil
}

// brokerError turns a failed request into one clear message: an
// unreachable broker, an authorization or authentication failure, or the
// broker's own error.
func (t *tableOptions) brokerError(what string, err error) error {
	servers := t.props["bootstrap.servers"]
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return t.errorf("%s: no answer from the Kafka brokers at '%s' within %v (is the broker running and 'properties.bootstrap.servers' right?)", what, servers, t.apiTimeout())
	case errors.Is(err, kerr.TopicAuthorizationFailed), errors.Is(err, kerr.GroupAuthorizationFailed),
		errors.Is(err, kerr.ClusterAuthorizationFailed), errors.Is(err, kerr.TransactionalIDAuthorizationFailed):
		return t.errorf("%s: not authorized by the Kafka brokers at '%s': %v", what, servers, err)
	case errors.Is(err, kerr.SaslAuthenticationFailed), errors.Is(err, kerr.IllegalSaslState), errors.Is(err, kerr.UnsupportedSaslMechanism):
		return t.errorf("%s: SASL authentication with the Kafka brokers at '%s' failed: %v", what, servers, err)
	}
	if errors.Is(err, io.EOF) && strings.HasPrefix(strings.ToUpper(t.props["security.protocol"]), "SASL") {
		return t.errorf("%s: SASL authentication with the Kafka brokers at '%s' failed: the broker closed the connection (wrong user name or password?)", what, servers)
	}
	var netErr interface{ Timeout() bool }
	if errors.As(err, &netErr) || strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "unable to dial") {
		return t.errorf("%s: cannot reach the Kafka brokers at '%s': %v", what, servers, err)
	}
	return t.errorf("%s: %v", what, err)
}

// topicPartitions lists the partitions of the table's topics (or of the
// topics matching topic-pattern), sorted by topic and partition. A missing
// topic is an error.
func (t *tableOptions) topicPartitions(parent context.Context, adm *kadm.Client) (map[string][]int32, error) {
	ctx, cancel := context.WithTimeout(parent, t.apiTimeout())
	defer cancel()
	var details kadm.TopicDetails
	var err error
	if t.pattern != nil {
		details, err = adm.ListTopics(ctx)
	} else {
		details, err = adm.ListTopics(ctx, t.topics...)
	}
	if err != nil {
		if parent.Err() != nil {
			// the job was cancelled while the brokers did not answer
			return nil, parent.Err()
		}
		return nil, t.brokerError("cannot list the topics", err)
	}
	out := map[string][]int32{}
	if t.pattern != nil {
		for name, d := range details {
			if d.IsInternal || !t.pattern.MatchString(name) || d.Err != nil {
				continue
			}
			for p := range d.Partitions {
				out[name] = append(out[name], p)
			}
		}
	} else {
		for _, name := range t.topics {
			d, ok := details[name]
			if !ok || errors.Is(d.Err, kerr.UnknownTopicOrPartition) {
				return nil, t.errorf("topic '%s' does not exist on the Kafka brokers at '%s'", name, t.props["bootstrap.servers"])
			}
			if d.Err != nil {
				return nil, t.brokerError(fmt.Sprintf("cannot read the metadata of topic '%s'", name), d.Err)
			}
			for p := range d.Partitions {
				out[name] = append(out[name], p)
			}
		}
	}
	for _, ps := range out {
		sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
	}
	return out, nil
}

// resolveOffsets turns a startup or bounded mode into an offset per
// partition. Offsets are exact (never -1): the earliest offset where the
// mode finds nothing (timestamp past the end gives the end offset).
func (t *tableOptions) resolveOffsets(ctx context.Context, adm *kadm.Client, mode string, specific map[int32]int64, millis int64, parts map[string][]int32, startup bool) (map[string]map[int32]int64, error) {
	ctx, cancel := context.WithTimeout(ctx, t.apiTimeout())
	defer cancel()
	var topics []string
	for tp := range parts {
		topics = append(topics, tp)
	}
	out := map[string]map[int32]int64{}
	if len(topics) == 0 {
		return out, nil
	}
	set := func(l kadm.ListedOffsets) error {
		var ferr error
		l.Each(func(o kadm.ListedOffset) {
			if o.Err != nil && ferr == nil {
				ferr = o.Err
			}
			if out[o.Topic] == nil {
				out[o.Topic] = map[int32]int64{}
			}
			out[o.Topic][o.Partition] = o.Offset
		})
		return ferr
	}
	starts, err := adm.ListStartOffsets(ctx, topics...)
	if err == nil {
		err = starts.Error()
	}
	if err != nil {
		return nil, t.brokerError("cannot list the earliest offsets", err)
	}
	ends, err := adm.ListEndOffsets(ctx, topics...)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return nil, t.brokerError("cannot list the latest offsets", err)
	}
	endOf := func(tp string, p int32) int64 {
		if o, ok := ends.Lookup(tp, p); ok {
			return o.Offset
		}
		return 0
	}
	startOf := func(tp string, p int32) int64 {
		if o, ok := starts.Lookup(tp, p); ok {
			return o.Offset
		}
		return 0
	}
	switch mode {
	case ModeEarliest:
		if err := set(starts); err != nil {
			return nil, t.brokerError("cannot list the earliest offsets", err)
		}
	case ModeLatest:
		if err := set(ends); err != nil {
			return nil, t.brokerError("cannot list the latest offsets", err)
		}
	case ModeTimestamp:
		l, err := adm.ListOffsetsAfterMilli(ctx, millis, topics...)
		if err == nil {
			err = l.Error()
		}
		if err != nil {
			return nil, t.brokerError("cannot list the offsets for a timestamp", err)
		}
		_ = set(l)
		for tp, ps := range out {
			for p, o := range ps {
				if o < 0 {
					ps[p] = endOf(tp, p)
				}
			}
		}
	case ModeSpecificOffsets:
		for tp, ps := range parts {
			out[tp] = map[int32]int64{}
			for _, p := range ps {
				if o, ok := specific[p]; ok {
					out[tp][p] = o
				} else if startup {
					out[tp][p] = startOf(tp, p)
				} else {
					// Flink's stopping offsets fall back to the earliest
					// offset: an unlisted partition is read no further
					out[tp][p] = startOf(tp, p)
				}
			}
		}
	case ModeGroupOffsets:
		group := t.props["group.id"]
		if group == "" {
			return nil, t.errorf("Property group.id is required when using committed offset for offsets initializer ('%s' = '%s'); set 'properties.group.id'", map[bool]string{true: OptStartupMode, false: OptBoundedMode}[startup], ModeGroupOffsets)
		}
		committed, err := fetchCommitted(ctx, adm, group, topics)
		if errors.Is(err, kerr.GroupIDNotFound) {
			// a group that never committed: no offsets
			committed, err = kadm.OffsetResponses{}, nil
		}
		if err != nil {
			return nil, t.brokerError(fmt.Sprintf("cannot fetch the committed offsets of group '%s'", group), err)
		}
		reset := strings.ToLower(strings.TrimSpace(t.props["auto.offset.reset"]))
		if reset == "" {
			reset = "none"
		}
		if !startup {
			reset = "latest"
		}
		var missing []string
		for tp, ps := range parts {
			out[tp] = map[int32]int64{}
			for _, p := range ps {
				if o, ok := committed.Lookup(tp, p); ok && o.At >= 0 {
					out[tp][p] = o.At
					continue
				}
				switch reset {
				case "earliest":
					out[tp][p] = startOf(tp, p)
				case "latest":
					out[tp][p] = endOf(tp, p)
				case "none":
					missing = append(missing, fmt.Sprintf("%s-%d", tp, p))
				default:
					return nil, t.errorf("invalid 'properties.auto.offset.reset' value '%s': expected earliest, latest or none", t.props["auto.offset.reset"])
				}
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			return nil, t.errorf("Undefined offset with no reset policy for partitions: [%s] (group '%s' has no committed offset; set 'properties.auto.offset.reset' to 'earliest' or 'latest')", strings.Join(missing, ", "), group)
		}
	default:
		return nil, t.errorf("unexpected offsets mode '%s'", mode)
	}
	// clamp to the partitions' ranges and keep only the listed partitions
	res := map[string]map[int32]int64{}
	for tp, ps := range parts {
		res[tp] = map[int32]int64{}
		for _, p := range ps {
			o, ok := out[tp][p]
			if !ok || o < 0 {
				o = startOf(tp, p)
			}
			res[tp][p] = o
		}
	}
	return res, nil
}

// fetchCommitted fetches the offsets group committed for topics. A broker
// that is still loading or creating its group coordinator (a fresh broker
// creates __consumer_offsets on the first group request, and franz-go
// returns its COORDINATOR_NOT_AVAILABLE from FindCoordinator at once) is
// asked again until ctx ends; the last error is returned then.
func fetchCommitted(ctx context.Context, adm *kadm.Client, group string, topics []string) (kadm.OffsetResponses, error) {
	backoff := 100 * time.Millisecond
	for {
		committed, err := adm.FetchOffsetsForTopics(ctx, group, topics...)
		if err == nil {
			err = committed.Error()
		}
		if err == nil || !(errors.Is(err, kerr.CoordinatorNotAvailable) ||
			errors.Is(err, kerr.CoordinatorLoadInProgress) || errors.Is(err, kerr.NotCoordinator)) {
			return committed, err
		}
		select {
		case <-ctx.Done():
			return committed, err
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

// consumerOptions maps the consumer properties: isolation.level
// (read_uncommitted, Kafka's default, or read_committed),
// fetch.max.wait.ms (Riffle's default 500 ms, Kafka's),
// max.partition.fetch.bytes and fetch.max.bytes (franz-go's defaults, 1
// MiB and 50 MiB, Kafka's: a broker returns whole record batches up to the
// partition's bound plus the cut start of the next one, which the client
// drops, so a bound near the topic's batch size reads up to twice the
// bytes).
func (t *tableOptions) consumerOptions() ([]kgo.Opt, error) {
	wait := 500 * time.Millisecond
	if v := strings.TrimSpace(t.props["fetch.max.wait.ms"]); v != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms < 0 {
			return nil, t.errorf("invalid 'properties.fetch.max.wait.ms' value '%s': expected milliseconds", v)
		}
		wait = time.Duration(ms) * time.Millisecond
	}
	// a partition found by discovery is fetched once the client's metadata
	// knows its leader: refresh it sooner than franz-go's 5 s default
	opts := []kgo.Opt{kgo.KeepControlRecords(), kgo.FetchMaxWait(wait), kgo.MetadataMinAge(500 * time.Millisecond), kgo.WithPools(recordPool{})}
	for _, p := range []struct {
		key string
		opt func(int32) kgo.ConsumerOpt
	}{{"max.partition.fetch.bytes", kgo.FetchMaxPartitionBytes}, {"fetch.max.bytes", kgo.FetchMaxBytes}} {
		if v := strings.TrimSpace(t.props[p.key]); v != "" {
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil || n <= 0 {
				return nil, t.errorf("invalid 'properties.%s' value '%s': expected a positive number of bytes", p.key, v)
			}
			opts = append(opts, p.opt(int32(n)))
		}
	}
	switch v := strings.ToLower(strings.TrimSpace(t.props["isolation.level"])); v {
	case "", "read_uncommitted":
	case "read_committed":
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	default:
		return nil, t.errorf("invalid 'properties.isolation.level' value '%s': expected read_uncommitted or read_committed", v)
	}
	return opts, nil
}

// recordPool reuses the []kgo.Record slices franz-go decodes fetched
// batches into; the source recycles every record once decoded.
type recordPool struct{}

var recordSlices sync.Pool

func (recordPool) GetRecords(n int) []kgo.Record {
	if v, ok := recordSlices.Get().(*[]kgo.Record); ok && cap(*v) >= n {
		return (*v)[:0]
	}
	return make([]kgo.Record, 0, n)
}

func (recordPool) PutRecords(rs []kgo.Record) {
	rs = rs[:0]
	recordSlices.Put(&rs)
}
