package plan

import (
	"context"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
)

// StoredPartitions lists the partitions a partitioned table's connector
// holds (for the filesystem connector: its k1=v1/k2=v2 directories), each
// as its partition key values; ok is false when the connector cannot list
// partitions.
func StoredPartitions(id string, t *catalog.Table, cfg *config.Configuration, checkPath func(string) error) (parts []map[string]string, ok bool, err error) {
	opts := map[string]string{}
	for k, v := range t.TableOptions {
		opts[k] = v
	}
	for _, k := range ExtensionOptions {
		delete(opts, k)
	}
	ctx := &connector.Context{Table: id, Schema: t.TableSchema, Options: opts, Config: cfg, PartitionKeys: t.PartitionKeys, CheckPath: checkPath}
	src, err := connector.CreateSource(ctx)
	if err != nil {
		return nil, false, err
	}
	pr, ok := src.(connector.PartitionPruner)
	if !ok {
		return nil, false, nil
	}
	parts, err = pr.PrunePartitions(context.Background(), func(map[string]any) bool { return true })
	return parts, true, err
}
