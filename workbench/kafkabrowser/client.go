package kafkabrowser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// DefaultTimeout bounds a connection test and each browse call when the
// caller's context has no deadline.
const DefaultTimeout = 10 * time.Second

// Client reads one cluster. It is safe for concurrent use; Close it when
// done.
type Client struct {
	cfg  Config
	cl   *kgo.Client
	adm  *kadm.Client
	dial *dialErrors
}

// dialErrors keeps the last failure to connect to a broker (kgo retries
// quietly until the context ends; the user wants to know why).
type dialErrors struct {
	mu   sync.Mutex
	last error
}

func (d *dialErrors) OnBrokerConnect(meta kgo.BrokerMetadata, _ time.Duration, _ net.Conn, err error) {
	if err == nil {
		return
	}
	d.mu.Lock()
	d.last = err
	d.mu.Unlock()
}

func (d *dialErrors) get() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last
}

// Dial returns a client of the cluster. It does not contact the brokers
// (the first call does); it fails only on invalid settings.
func Dial(cfg Config) (*Client, error) {
	opts, err := cfg.clientOpts()
	if err != nil {
		return nil, err
	}
	d := &dialErrors{}
	opts = append(opts, kgo.WithHooks(d), kgo.RetryTimeout(DefaultTimeout))
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, cl: cl, adm: kadm.NewClient(cl), dial: d}, nil
}

// Config returns the client's settings.
func (c *Client) Config() Config { return c.cfg }

// Close releases the client's connections.
func (c *Client) Close() { c.cl.Close() }

func bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, DefaultTimeout)
}

// explain words a failure to talk to the cluster for the user: an
// unreachable broker names the address and the last dial error, an
// authentication or authorization failure says so.
func (c *Client) explain(ctx context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	bs := strings.Join(c.cfg.Brokers(), ",")
	var ke *kerr.Error
	if errors.As(err, &ke) {
		switch ke {
		case kerr.SaslAuthenticationFailed, kerr.IllegalSaslState, kerr.UnsupportedSaslMechanism:
			return fmt.Errorf("%s: %s refused the credentials (%s): check the user name, password and mechanism", what, bs, ke.Message)
		case kerr.TopicAuthorizationFailed, kerr.GroupAuthorizationFailed, kerr.ClusterAuthorizationFailed:
			return fmt.Errorf("%s: not authorized (%s): the user %q lacks an ACL", what, ke.Message, c.cfg.Username)
		case kerr.UnknownTopicOrPartition:
			return fmt.Errorf("%s: no such topic", what)
		}
	}
	if strings.Contains(err.Error(), "invalid large response size") {
		// franz-go read a size prefix that no Kafka response has
		msg := err.Error()
		if i := strings.Index(msg, "; "); i >= 0 {
			msg = msg[i+2:]
		}
		return fmt.Errorf("%s: %s answered, but not as a Kafka broker (%s)", what, bs, msg)
	}
	if c.cfg.sasl() && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) {
		return fmt.Errorf("%s: %s closed the connection during SASL authentication: check the user name, password and mechanism", what, bs)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.Is(err, kgo.ErrClientClosed) || isDialErr(err) {
		last := c.dial.get()
		if last == nil && isDialErr(err) {
			last = err
		}
		if last != nil {
			return fmt.Errorf("%s: cannot reach the Kafka cluster at %s: %s", what, bs, dialText(last))
		}
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("%s: no answer from the Kafka cluster at %s in time (is it a Kafka broker? with the right security protocol?)", what, bs)
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}

func isDialErr(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe)
}

func dialText(err error) string {
	var de *net.DNSError
	if errors.As(err, &de) && de.IsNotFound {
		return fmt.Sprintf("no host named %s (the name does not resolve: check its spelling)", de.Name)
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		s := oe.Err.Error()
		if i := strings.LastIndex(s, ": "); i >= 0 && strings.Contains(s, "connect") {
			s = s[i+2:]
		}
		return s
	}
	s := err.Error()
	if strings.Contains(s, "tls:") || strings.Contains(s, "x509") {
		return "TLS: " + s
	}
	return s
}

// ClusterInfo is what a connection test found.
type ClusterInfo struct {
	ClusterID  string
	Brokers    int
	Topics     int // not counting internal ones
	Controller int32
}

// String is "cluster X: 3 brokers, 12 topics".
func (i ClusterInfo) String() string {
	s := count(i.Brokers, "broker") + ", " + count(i.Topics, "topic")
	if i.ClusterID != "" {
		s = "cluster " + i.ClusterID + ": " + s
	}
	return s
}

// count is "1 topic", "3 topics".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Test contacts the cluster with cfg and reports what it found, within
// timeout (DefaultTimeout when 0). The error says what failed: the
// settings, reaching a broker (with the dial error), the credentials.
func Test(ctx context.Context, cfg Config, timeout time.Duration) (ClusterInfo, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	c, err := Dial(cfg)
	if err != nil {
		return ClusterInfo{}, err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	m, err := c.adm.Metadata(ctx)
	if err != nil {
		return ClusterInfo{}, c.explain(ctx, "connecting", err)
	}
	info := ClusterInfo{ClusterID: m.Cluster, Brokers: len(m.Brokers), Controller: m.Controller}
	for _, t := range m.Topics {
		if !t.IsInternal && !strings.HasPrefix(t.Topic, "__") {
			info.Topics++
		}
	}
	return info, nil
}

// Partition is one partition of a topic.
type Partition struct {
	ID     int32
	Leader int32
	// Start is the log start offset (the earliest kept); End the log end
	// offset (the high watermark: the next offset written). Both -1 when
	// they could not be listed.
	Start, End int64
	Err        error
}

// Messages is End - Start: the records kept (an upper bound on a
// compacted or transactional topic, whose offsets have gaps).
func (p Partition) Messages() int64 {
	if p.Start < 0 || p.End < 0 {
		return 0
	}
	return p.End - p.Start
}

// Topic is one topic with its partitions.
type Topic struct {
	Name       string
	Internal   bool
	Partitions []Partition // by ID
	Err        error       // a metadata error of the topic
}

// Messages sums the partitions' messages.
func (t Topic) Messages() int64 {
	var n int64
	for _, p := range t.Partitions {
		n += p.Messages()
	}
	return n
}

// IsInternal reports a topic the browser hides by default: Kafka's
// internal topics (__consumer_offsets, __transaction_state) and other
// names starting with "__" or "_confluent" / "_schemas".
func IsInternal(name string, internal bool) bool {
	return internal || strings.HasPrefix(name, "__") || strings.HasPrefix(name, "_confluent") || name == "_schemas"
}

// Topics lists the cluster's topics, sorted by name, with their
// partitions' start and end offsets; internal topics only when
// withInternal is set.
func (c *Client) Topics(ctx context.Context, withInternal bool) ([]Topic, error) {
	ctx, cancel := bound(ctx)
	defer cancel()
	td, err := c.adm.ListTopicsWithInternal(ctx)
	if err != nil {
		return nil, c.explain(ctx, "listing topics", err)
	}
	var names []string
	out := map[string]*Topic{}
	for name, d := range td {
		if IsInternal(name, d.IsInternal) && !withInternal {
			continue
		}
		t := &Topic{Name: name, Internal: IsInternal(name, d.IsInternal), Err: d.Err}
		for _, p := range d.Partitions.Sorted() {
			t.Partitions = append(t.Partitions, Partition{ID: p.Partition, Leader: p.Leader, Start: -1, End: -1, Err: p.Err})
		}
		out[name] = t
		names = append(names, name)
	}
	sort.Strings(names)
	if len(names) > 0 {
		starts, serr := c.adm.ListStartOffsets(ctx, names...)
		ends, eerr := c.adm.ListEndOffsets(ctx, names...)
		if serr != nil && eerr != nil {
			return nil, c.explain(ctx, "listing offsets", serr)
		}
		for _, t := range out {
			for i := range t.Partitions {
				p := &t.Partitions[i]
				if o, ok := starts.Lookup(t.Name, p.ID); ok && o.Err == nil {
					p.Start = o.Offset
				} else if ok && p.Err == nil {
					p.Err = o.Err
				}
				if o, ok := ends.Lookup(t.Name, p.ID); ok && o.Err == nil {
					p.End = o.Offset
				} else if ok && p.Err == nil {
					p.Err = o.Err
				}
			}
		}
	}
	res := make([]Topic, 0, len(names))
	for _, n := range names {
		res = append(res, *out[n])
	}
	return res, nil
}

// GroupLag is one consumer group's position on a topic.
type GroupLag struct {
	Group string
	State string // Stable, Empty, …
	// Partitions are the partitions the group committed offsets for, by
	// ID; Lag sums their lags.
	Partitions []PartitionLag
	Lag        int64
}

// PartitionLag is a group's committed offset on one partition.
type PartitionLag struct {
	Partition int32
	Committed int64 // -1 when the group committed none
	End       int64
	Lag       int64 // End - Committed; -1 when unknown
	Member    string
}

// Lags lists the consumer groups that committed offsets on topic, by name,
// with their lag per partition. A cluster without groups gives none.
func (c *Client) Lags(ctx context.Context, topic string) ([]GroupLag, error) {
	ctx, cancel := bound(ctx)
	defer cancel()
	groups, err := c.adm.ListGroups(ctx)
	if err != nil {
		return nil, c.explain(ctx, "listing consumer groups", err)
	}
	names := groups.Groups()
	if len(names) == 0 {
		return nil, nil
	}
	lags, err := c.adm.Lag(ctx, names...)
	if err != nil {
		return nil, c.explain(ctx, "reading consumer groups' lag", err)
	}
	var out []GroupLag
	for _, name := range names {
		l, ok := lags[name]
		if !ok || l.Error() != nil {
			continue
		}
		ps := l.Lag[topic]
		if len(ps) == 0 {
			continue
		}
		g := GroupLag{Group: name, State: l.State}
		for _, m := range ps {
			pl := PartitionLag{Partition: m.Partition, Committed: m.Commit.At, End: m.End.Offset, Lag: m.Lag}
			if m.Member != nil {
				pl.Member = m.Member.ClientID + " " + m.Member.ClientHost
			}
			if pl.Lag > 0 {
				g.Lag += pl.Lag
			}
			g.Partitions = append(g.Partitions, pl)
		}
		sort.Slice(g.Partitions, func(i, j int) bool { return g.Partitions[i].Partition < g.Partitions[j].Partition })
		out = append(out, g)
	}
	return out, nil
}

// CreateTopic creates a topic (for demos and tests); an existing topic is
// no error.
func (c *Client) CreateTopic(ctx context.Context, topic string, partitions int32) error {
	ctx, cancel := bound(ctx)
	defer cancel()
	res, err := c.adm.CreateTopic(ctx, partitions, 1, nil, topic)
	if err == nil {
		err = res.Err
	}
	if errors.Is(err, kerr.TopicAlreadyExists) {
		return nil
	}
	return c.explain(ctx, "creating topic "+topic, err)
}

// Produce writes records synchronously (for demos and tests).
func (c *Client) Produce(ctx context.Context, recs ...*kgo.Record) error {
	ctx, cancel := bound(ctx)
	defer cancel()
	return c.explain(ctx, "producing", c.cl.ProduceSync(ctx, recs...).FirstErr())
}

func newAdm(cl *kgo.Client) *kadm.Client { return kadm.NewClient(cl) }
