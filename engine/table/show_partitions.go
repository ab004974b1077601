package table

import (
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
)

// showPartitions runs SHOW PARTITIONS t [PARTITION (k = v, ...)]: one
// column "partition name" listing k1=v1/k2=v2 per partition, in partition
// key order, as Flink's ShowPartitionsOperation prints them. The
// partitions are the catalog's (Catalog.CreatePartition) and those the
// table's connector stores (the filesystem connector's directories); with
// a PARTITION spec only partitions with all its values are listed.
func (x *execution) showPartitions(s *sql.Show) (*TableResult, error) {
	t := x.env
	id, err := x.qualify(s.From)
	if err != nil {
		return nil, err
	}
	fail := func(cause string) error {
		return errorf("Could not execute SHOW PARTITIONS %s\n%s", id.Summary(), cause)
	}
	rt, ok, err := t.catalogs.GetTable(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fail("Table (or view) " + id.String() + " does not exist.")
	}
	tbl, isTable := rt.Table.(*catalog.Table)
	if !isTable || !tbl.IsPartitioned() {
		return nil, fail("Table " + id.Path().String() + " in catalog " + id.Catalog + " is not partitioned.")
	}
	filter := props(s.Partition)
	keys := tbl.PartitionKeys
	for k := range filter {
		found := false
		for _, pk := range keys {
			found = found || pk == k
		}
		if !found {
			return nil, fail("Partition key '" + k + "' is not a partition key of " + id.Summary() + "; the partition keys are " + strings.Join(keys, ", ") + ".")
		}
	}
	names := map[string]bool{}
	add := func(spec map[string]string) {
		for k, v := range filter {
			if spec[k] != v {
				return
			}
		}
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			if v, ok := spec[k]; ok {
				parts = append(parts, k+"="+v)
			}
		}
		names[strings.Join(parts, "/")] = true
	}
	if !rt.Temporary {
		if c, err := t.catalogs.Catalog(id.Catalog); err == nil {
			specs, err := c.ListPartitions(id.Path(), nil)
			if err != nil {
				return nil, fail(err.Error())
			}
			for _, sp := range specs {
				add(sp)
			}
		}
	}
	stored, _, err := plan.StoredPartitions(id.String(), tbl, t.config.conf, t.pathPolicy())
	if err != nil {
		return nil, fail(err.Error())
	}
	for _, sp := range stored {
		add(sp)
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	return listResult("partition name", list), nil
}
