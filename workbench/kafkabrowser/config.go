// Package kafkabrowser is the workbench's model of a Kafka cluster, kept
// free of Fyne: a connection's settings (bootstrap servers, security), a
// connection test, the topic list with partitions, offsets and message
// counts, consumer groups' lag, a peek at the earliest or latest messages
// of a topic, and a table inferred from sampled messages (json, and the
// Debezium, Canal and Maxwell CDC envelopes) with the Flink CREATE TABLE
// that reads the topic through the 'kafka' connector.
//
// It talks to brokers through franz-go (kgo for records, kadm for
// metadata, offsets and groups). Every call takes a context and is bounded
// by it; none may be made on a UI goroutine.
package kafkabrowser

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// Security protocols, as Kafka's security.protocol names them.
const (
	Plaintext     = "PLAINTEXT"
	SASLPlaintext = "SASL_PLAINTEXT"
	SASLSSL       = "SASL_SSL"
	SSL           = "SSL"
)

// SASL mechanisms, as Kafka's sasl.mechanism names them.
const (
	MechPlain       = "PLAIN"
	MechScramSHA256 = "SCRAM-SHA-256"
	MechScramSHA512 = "SCRAM-SHA-512"
)

// Protocols lists the security protocols offered, PLAINTEXT first.
var Protocols = []string{Plaintext, SASLPlaintext, SASLSSL, SSL}

// Mechanisms lists the SASL mechanisms offered.
var Mechanisms = []string{MechPlain, MechScramSHA256, MechScramSHA512}

// Config is a Kafka cluster connection as the workbench stores it.
type Config struct {
	Name string
	// Bootstrap is the comma-separated list of host:port of the brokers
	// first contacted (Kafka's bootstrap.servers).
	Bootstrap string
	// Security is one of Protocols ("" is PLAINTEXT).
	Security string
	// Mechanism is the SASL mechanism (SASL_* protocols only).
	Mechanism string
	Username  string
	// Password is the SASL password; it is written to the workspace only
	// when SavePassword is set, and never to generated SQL shown as a
	// script (see TableOptions).
	Password     string
	SavePassword bool
	// CAFile is a PEM file of the certificate authorities trusted for
	// TLS (SSL and SASL_SSL); "" trusts the system's.
	CAFile string
}

// Brokers returns the bootstrap servers as a list.
func (c Config) Brokers() []string {
	var out []string
	for _, s := range strings.Split(c.Bootstrap, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (c Config) protocol() string {
	if c.Security == "" {
		return Plaintext
	}
	return strings.ToUpper(c.Security)
}

func (c Config) sasl() bool { return strings.HasPrefix(c.protocol(), "SASL_") }
func (c Config) tls() bool  { return c.protocol() == SSL || c.protocol() == SASLSSL }

// Validate checks the settings without contacting a broker: a name, at
// least one host:port, a known protocol and mechanism, a user name for
// SASL, and a readable CA file when one is given.
func (c Config) Validate() error {
	if strings.TrimSpace(c.Name) == "" {
		return errors.New("the connection needs a name")
	}
	bs := c.Brokers()
	if len(bs) == 0 {
		return errors.New("bootstrap servers: give at least one host:port, e.g. 127.0.0.1:9092")
	}
	for _, b := range bs {
		if strings.Contains(b, "://") {
			return fmt.Errorf("bootstrap servers: %q: give host:port without a scheme", b)
		}
		host, port, err := net.SplitHostPort(b)
		if err != nil || host == "" || port == "" {
			return fmt.Errorf("bootstrap servers: %q is not host:port", b)
		}
	}
	switch c.protocol() {
	case Plaintext, SSL:
	case SASLPlaintext, SASLSSL:
		switch c.Mechanism {
		case MechPlain, MechScramSHA256, MechScramSHA512:
		default:
			return fmt.Errorf("SASL mechanism %q: want one of %s", c.Mechanism, strings.Join(Mechanisms, ", "))
		}
		if strings.TrimSpace(c.Username) == "" {
			return errors.New("SASL needs a user name")
		}
	default:
		return fmt.Errorf("security protocol %q: want one of %s", c.Security, strings.Join(Protocols, ", "))
	}
	if c.tls() && c.CAFile != "" {
		if _, err := c.tlsConfig(); err != nil {
			return err
		}
	}
	return nil
}

func (c Config) tlsConfig() (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.CAFile == "" {
		return tc, nil
	}
	pem, err := os.ReadFile(c.CAFile)
	if err != nil {
		return nil, fmt.Errorf("CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("CA file %s holds no PEM certificate", c.CAFile)
	}
	tc.RootCAs = pool
	return tc, nil
}

// clientOpts are the franz-go options that reach the cluster.
func (c Config) clientOpts() ([]kgo.Opt, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	opts := []kgo.Opt{kgo.SeedBrokers(c.Brokers()...), kgo.ClientID("riffle-workbench")}
	if c.tls() {
		tc, err := c.tlsConfig()
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.DialTLSConfig(tc))
	}
	if c.sasl() {
		switch c.Mechanism {
		case MechPlain:
			opts = append(opts, kgo.SASL(plain.Auth{User: c.Username, Pass: c.Password}.AsMechanism()))
		case MechScramSHA256:
			opts = append(opts, kgo.SASL(scram.Auth{User: c.Username, Pass: c.Password}.AsSha256Mechanism()))
		case MechScramSHA512:
			opts = append(opts, kgo.SASL(scram.Auth{User: c.Username, Pass: c.Password}.AsSha512Mechanism()))
		}
	}
	return opts, nil
}

// PasswordMask stands for the password in SQL shown to the user.
const PasswordMask = "********"

// TableOptions are the 'properties.*' options of a Flink 'kafka' table
// reading this cluster: 'properties.bootstrap.servers' and, for secured
// clusters, 'properties.security.protocol', 'properties.sasl.mechanism',
// 'properties.sasl.jaas.config' (Kafka's Java login modules) and
// 'properties.ssl.truststore.type' = 'PEM' with
// 'properties.ssl.truststore.location' for a CA file. With mask set the
// password in the JAAS line is PasswordMask (SQL to show or save); without
// it, the real one (SQL to run).
func (c Config) TableOptions(mask bool) [][2]string {
	out := [][2]string{{"properties.bootstrap.servers", strings.Join(c.Brokers(), ",")}}
	if p := c.protocol(); p != Plaintext {
		out = append(out, [2]string{"properties.security.protocol", p})
	}
	if c.sasl() {
		module := "org.apache.kafka.common.security.plain.PlainLoginModule"
		if c.Mechanism != MechPlain {
			module = "org.apache.kafka.common.security.scram.ScramLoginModule"
		}
		pass := c.Password
		if mask {
			pass = PasswordMask
		}
		out = append(out, [2]string{"properties.sasl.mechanism", c.Mechanism},
			[2]string{"properties.sasl.jaas.config", fmt.Sprintf(`%s required username="%s" password="%s";`, module, jaasEscape(c.Username), jaasEscape(pass))})
	}
	if c.tls() && c.CAFile != "" {
		out = append(out, [2]string{"properties.ssl.truststore.type", "PEM"}, [2]string{"properties.ssl.truststore.location", c.CAFile})
	}
	return out
}

func jaasEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
