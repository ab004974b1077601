package topicbrowser

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
)

// fakeHost keeps connections in a slice and queues Do's closures for
// the test's goroutine; it records what the tree asked for.
type fakeHost struct {
	t       *testing.T
	conns   []kafkabrowser.Config
	queue   chan func()
	status  string
	msgs    []string
	asked   []string
	mu      sync.Mutex
	clients map[string]*kafkabrowser.Client
}

func newFakeHost(t *testing.T, conns ...kafkabrowser.Config) *fakeHost {
	h := &fakeHost{t: t, conns: conns, queue: make(chan func(), 64), clients: map[string]*kafkabrowser.Client{}}
	t.Cleanup(func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, c := range h.clients {
			c.Close()
		}
	})
	return h
}

func (h *fakeHost) Names() []string {
	out := make([]string, len(h.conns))
	for i, c := range h.conns {
		out[i] = c.Name
	}
	return out
}

func (h *fakeHost) Config(name string) (kafkabrowser.Config, bool) {
	for _, c := range h.conns {
		if c.Name == name {
			return c, true
		}
	}
	return kafkabrowser.Config{}, false
}

func (h *fakeHost) Connect(name string) (func() (*kafkabrowser.Client, error), bool) {
	cfg, ok := h.Config(name)
	if !ok {
		return nil, false
	}
	return func() (*kafkabrowser.Client, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		if c := h.clients[name]; c != nil {
			return c, nil
		}
		if cfg.Security == kafkabrowser.SASLPlaintext && cfg.Password == "" {
			return nil, kafkabrowser.ErrNoPassword
		}
		c, err := kafkabrowser.Dial(cfg)
		if err != nil {
			return nil, err
		}
		h.clients[name] = c
		return c, nil
	}, true
}

func (h *fakeHost) Do(f func())          { h.queue <- f }
func (h *fakeHost) SetStatus(msg string) { h.status = msg }
func (h *fakeHost) Error(msg string)     { h.msgs = append(h.msgs, "error: "+msg) }
func (h *fakeHost) Warning(msg string)   { h.msgs = append(h.msgs, "warning: "+msg) }

func (h *fakeHost) EditConnection(name string) { h.asked = append(h.asked, "edit "+name) }
func (h *fakeHost) Peek(conn, topic string, o kafkabrowser.PeekOptions) {
	h.asked = append(h.asked, fmt.Sprintf("peek %s/%s latest=%v n=%d partition=%d", conn, topic, o.Latest, o.N, o.Partition))
}
func (h *fakeHost) CreateTable(conn, topic string) {
	h.asked = append(h.asked, "create "+conn+"/"+topic)
}
func (h *fakeHost) InsertText(text string)         { h.asked = append(h.asked, "insert "+text) }
func (h *fakeHost) ProduceDemoFlights(conn string) { h.asked = append(h.asked, "demo "+conn) }

// until runs the queued closures until the tree's text holds want.
func (h *fakeHost) until(k *Browser, want string) string {
	h.t.Helper()
	var got string
	testwait.Until(h.t, 10*time.Second, want, func() bool {
		for {
			select {
			case f := <-h.queue:
				f()
				continue
			default:
			}
			break
		}
		got = strings.Join(k.VisibleLabels(), "\n")
		return strings.Contains(got, want)
	})
	return got
}

// menu lists a node's menu items and taps the one labelled tap ("" =
// none).
func menu(k *Browser, uid string, tap string) string {
	var items []string
	for _, it := range k.MenuFor(uid).Items {
		items = append(items, it.Label)
		if tap != "" && it.Label == tap {
			it.Action()
		}
	}
	return strings.Join(items, "|")
}

func TestBrowserWithoutConnectionsOffersToAddOne(t *testing.T) {
	test.NewTempApp(t)
	h := newFakeHost(t)
	k := New(h)
	if got := strings.Join(k.VisibleLabels(), "\n"); got != "Add a Kafka cluster with +" {
		t.Errorf("empty tree: %q", got)
	}
	none := k.Children("")[0]
	if got := menu(k, none, "Add a Kafka connection…"); got != "Add a Kafka connection…" {
		t.Errorf("menu %q", got)
	}
	k.DoubleTap(none)
	if got := strings.Join(h.asked, "; "); got != "edit ; edit " {
		t.Errorf("asked %q", got)
	}
}

func TestBrowserMissingPasswordOpensTheConnection(t *testing.T) {
	test.NewTempApp(t)
	h := newFakeHost(t, kafkabrowser.Config{Name: "sec", Bootstrap: "127.0.0.1:1", Security: kafkabrowser.SASLPlaintext,
		Mechanism: kafkabrowser.MechPlain, Username: "alice"})
	k := New(h)
	k.Tree().OpenBranch(ConnID("sec"))
	h.until(k, "  No password: double-click to enter it")
	if len(h.msgs) != 1 || !strings.HasPrefix(h.msgs[0], "error: Kafka sec: ") {
		t.Errorf("messages %q", h.msgs)
	}
	if got := menu(k, ErrorID("sec"), "Edit connection…"); got != "Edit connection…|Retry" {
		t.Errorf("error node menu %q", got)
	}
	k.DoubleTap(ErrorID("sec"))
	if got := strings.Join(h.asked, "; "); got != "edit sec; edit sec" {
		t.Errorf("asked %q", got)
	}
	// the password entered, the connection is read again
	h.conns[0].Password = "pw"
	k.Forget("sec")
	k.Refresh()
	h.until(k, "Cannot read topics")
}

func TestBrowserListsTopicsAndAsksForTheirActions(t *testing.T) {
	test.NewTempApp(t)
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "orders"),
		kfake.ListenFn(func(network, _ string) (net.Listener, error) { return net.Listen(network, "127.0.0.1:0") }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	addr := strings.Join(c.ListenAddrs(), ",")
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.ProduceSync(context.Background(), &kgo.Record{Topic: "orders", Value: []byte(`{"id": 1}`)},
		&kgo.Record{Topic: "orders", Partition: 1, Value: []byte(`{"id": 2}`)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	h := newFakeHost(t, kafkabrowser.Config{Name: "local", Bootstrap: addr})
	k := New(h)
	k.Tree().OpenBranch(ConnID("local"))
	got := h.until(k, "  orders")
	if want := "local · " + addr + " · 1 topic\n  orders · 2 messages · 2 partitions"; got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
	if p, ok := k.Topic("local", "orders"); !ok || len(p.Partitions) != 2 {
		t.Errorf("topic %+v %v", p, ok)
	}
	k.Tree().Select(TopicID("local", "orders"))
	if h.status != "orders · 2 messages · 2 partitions" {
		t.Errorf("status %q", h.status)
	}
	if got := menu(k, TopicID("local", "orders"), ""); got != "Peek latest 50|Peek earliest 50||Create table from topic…|Insert topic name into editor" {
		t.Errorf("topic menu %q", got)
	}
	menu(k, TopicID("local", "orders"), "Peek earliest 50")
	menu(k, TopicID("local", "orders"), "Create table from topic…")
	menu(k, TopicID("local", "orders"), "Insert topic name into editor")
	menu(k, ConnID("local"), "Produce demo flights into "+assets.DemoKafkaTopic)
	k.DoubleTap(TopicID("local", "orders"))
	want := "peek local/orders latest=false n=50 partition=-1; create local/orders; insert 'orders'; demo local; peek local/orders latest=true n=50 partition=-1"
	if got := strings.Join(h.asked, "; "); got != want {
		t.Errorf("asked %q\nwant %q", got, want)
	}
	// the partitions of an open topic
	k.Tree().OpenBranch(TopicID("local", "orders"))
	h.until(k, "    partition 1 · 1 message · offsets 0 … 1 · leader 0")
}
