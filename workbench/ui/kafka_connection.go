package ui

// Kafka connections: the Kafka clusters the workbench browses (the
// "Kafka" tree under the catalog tree, package topicbrowser through
// topic_browser_host.go), kept in the
// workspace (persistence.KafkaConnection). They are apart from the
// SQL connections of connections.go: a cluster is something to look
// into and to create tables from, not somewhere statements run.
//
// The password of a SASL connection is kept for the session, and written
// to the workspace only when "Save password" is ticked; generated SQL
// shows it masked (kafkabrowser.PasswordMask) and runs with it.
//
// File ▸ Kafka connections… is package kafkaconnections, reaching these
// through kafkaConnectionsHost (kafka_connections_host.go).

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"fyne.io/fyne/v2/container"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/kafkaconnections"
	"github.com/riffle-sql/riffle/workbench/ui/topicbrowser"
)

// kafkaConn is one Kafka connection and its client.
type kafkaConn struct {
	mu     sync.Mutex
	cfg    kafkabrowser.Config
	client *kafkabrowser.Client
}

// config returns the connection's settings (any goroutine).
func (c *kafkaConn) config() kafkabrowser.Config {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg
}

// cli returns the connection's client, made on first use (any goroutine).
func (c *kafkaConn) cli() (*kafkabrowser.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client != nil {
		return c.client, nil
	}
	if c.cfg.Security == kafkabrowser.SASLPlaintext || c.cfg.Security == kafkabrowser.SASLSSL {
		if c.cfg.Password == "" {
			return nil, kafkabrowser.ErrNoPassword
		}
	}
	cl, err := kafkabrowser.Dial(c.cfg)
	if err != nil {
		return nil, err
	}
	c.client = cl
	return cl, nil
}

// setConfig replaces the settings and drops the client.
func (c *kafkaConn) setConfig(cfg kafkabrowser.Config) {
	c.mu.Lock()
	old := c.client
	c.cfg, c.client = cfg, nil
	c.mu.Unlock()
	if old != nil {
		go old.Close()
	}
}

func (c *kafkaConn) close() {
	c.mu.Lock()
	old := c.client
	c.client = nil
	c.mu.Unlock()
	if old != nil {
		old.Close()
	}
}

// kafkaUI is the workbench's Kafka side: connections, the topic tree,
// peek tabs.
type kafkaUI struct {
	wb    *Workbench
	conns []*kafkaConn // by name

	browser *topicbrowser.Browser // the Kafka tree
	split   *container.Split      // the catalog above, the Kafka tree below
	peeks   []*topicPeek
	dlg     *kafkaconnections.Dialog // the open dialog (tests)
}

func toConfig(p persistence.KafkaConnection) kafkabrowser.Config {
	return kafkabrowser.Config{Name: p.Name, Bootstrap: p.Bootstrap, Security: p.Security, Mechanism: p.Mechanism,
		Username: p.Username, Password: p.Password, SavePassword: p.SavePassword, CAFile: p.CAFile}
}

func fromConfig(c kafkabrowser.Config) persistence.KafkaConnection {
	return persistence.KafkaConnection{Name: c.Name, Bootstrap: c.Bootstrap, Security: c.Security, Mechanism: c.Mechanism,
		Username: c.Username, Password: c.Password, SavePassword: c.SavePassword, CAFile: c.CAFile}
}

// newKafkaUI loads the workspace's Kafka connections.
func newKafkaUI(wb *Workbench) *kafkaUI {
	k := &kafkaUI{wb: wb}
	list, problems, err := wb.store.KafkaConnections(context.Background())
	if err != nil {
		wb.startProblems = append(wb.startProblems, "Reading the Kafka connections: "+err.Error())
	}
	for _, p := range problems {
		wb.startProblems = append(wb.startProblems, p.Error())
	}
	for _, p := range list {
		k.conns = append(k.conns, &kafkaConn{cfg: toConfig(p)})
	}
	k.browser = topicbrowser.New(topicBrowserHost{k})
	return k
}

func (k *kafkaUI) byName(name string) *kafkaConn {
	for _, c := range k.conns {
		if c.config().Name == name {
			return c
		}
	}
	return nil
}

func (k *kafkaUI) sort() {
	sort.Slice(k.conns, func(i, j int) bool {
		return strings.ToLower(k.conns[i].config().Name) < strings.ToLower(k.conns[j].config().Name)
	})
}

// save stores a connection: a new one (old == "") or the one named old,
// perhaps renamed.
func (k *kafkaUI) save(old string, cfg kafkabrowser.Config) (*kafkaConn, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if other := k.byName(cfg.Name); other != nil && cfg.Name != old {
		return nil, fmt.Errorf("a Kafka connection named %q exists already", cfg.Name)
	}
	ctx := context.Background()
	if err := k.wb.store.SaveKafkaConnection(ctx, fromConfig(cfg)); err != nil {
		return nil, err
	}
	if cfg.SavePassword && cfg.Password != "" && !k.wb.store.ReadOnly() {
		if err := protectWorkspace(k.wb.store.Path()); err != nil {
			k.wb.messages.add(levelWarning, "The workspace holds a Kafka password but could not be made private: "+err.Error(), nil)
		}
	}
	c := k.byName(old)
	if old == "" || c == nil {
		c = &kafkaConn{cfg: cfg}
		k.conns = append(k.conns, c)
		if len(k.conns) == 1 && k.split != nil && k.split.Offset > 0.7 {
			k.split.SetOffset(0.62) // the first cluster: room for its topics
		}
	} else {
		if old != cfg.Name {
			if err := k.wb.store.DeleteKafkaConnection(ctx, old); err != nil {
				return nil, err
			}
		}
		c.setConfig(cfg)
	}
	k.browser.Forget(old) // read again
	k.browser.Forget(cfg.Name)
	k.sort()
	k.browser.Refresh()
	return c, nil
}

// remove deletes a connection.
func (k *kafkaUI) remove(name string) error {
	if err := k.wb.store.DeleteKafkaConnection(context.Background(), name); err != nil {
		return err
	}
	for i, c := range k.conns {
		if c.config().Name == name {
			k.conns = append(k.conns[:i], k.conns[i+1:]...)
			go c.close()
			break
		}
	}
	k.browser.Forget(name)
	k.browser.Refresh()
	return nil
}

// closeAll closes the clients (Workbench.Close).
func (k *kafkaUI) closeAll() {
	for _, c := range k.conns {
		c.close()
	}
}
