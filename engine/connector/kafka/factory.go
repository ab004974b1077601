// Package kafka implements Flink's 'kafka' and 'upsert-kafka' connectors on
// franz-go: a source reading topic partitions (startup and bounded modes,
// key and value formats, metadata columns, partition discovery,
// per-partition progress) and a sink producing records (partitioners,
// writable metadata, upsert tombstones and buffer flushing). See
// docs/kafka.md for every option and the differences from Flink.
package kafka

import (
	"github.com/riffle-sql/riffle/engine/connector"
)

// Factory is the 'kafka' connector.
type Factory struct{}

// Identifier is "kafka".
func (Factory) Identifier() string { return "kafka" }

// Options lists the kafka connector's options (properties.* and the
// formats' options are validated by prefix).
func (Factory) Options() []connector.Option { return kafkaOptions() }

// CreateSource creates a kafka source.
func (Factory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	t, err := parseOptions(ctx, false)
	if err != nil {
		return nil, err
	}
	if err := t.checkSourceTopics(); err != nil {
		return nil, err
	}
	return newSource(ctx, t)
}

// CreateSink creates a kafka sink.
func (Factory) CreateSink(ctx *connector.Context) (connector.Sink, error) {
	t, err := parseOptions(ctx, false)
	if err != nil {
		return nil, err
	}
	return newSink(ctx, t)
}

// UpsertFactory is the 'upsert-kafka' connector.
type UpsertFactory struct{}

// Identifier is "upsert-kafka".
func (UpsertFactory) Identifier() string { return "upsert-kafka" }

// Options lists the upsert-kafka connector's options.
func (UpsertFactory) Options() []connector.Option { return upsertOptions() }

// CreateSource creates an upsert-kafka source: an upsert changelog keyed
// on the primary key, read from the earliest offset.
func (UpsertFactory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	t, err := parseOptions(ctx, true)
	if err != nil {
		return nil, err
	}
	if err := t.checkSourceTopics(); err != nil {
		return nil, err
	}
	return newSource(ctx, t)
}

// CreateSink creates an upsert-kafka sink.
func (UpsertFactory) CreateSink(ctx *connector.Context) (connector.Sink, error) {
	t, err := parseOptions(ctx, true)
	if err != nil {
		return nil, err
	}
	return newSink(ctx, t)
}

func (t *tableOptions) checkSourceTopics() error {
	if len(t.topics) == 0 && t.pattern == nil {
		return t.errorf("Either 'topic' or 'topic-pattern' must be set.")
	}
	return nil
}

func init() {
	connector.Register(Factory{})
	connector.Register(UpsertFactory{})
}
