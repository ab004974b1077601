package filesystem

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// PrunePartitions implements connector.PartitionPruner: Splits then lists
// only the files of partitions for which keep is true. Each partition's
// directory values are converted to the partition columns' types first (the
// partition.default-name value is NULL). It returns the kept partitions,
// sorted by their path.
func (src *Source) PrunePartitions(ctx context.Context, keep func(values map[string]any) bool) ([]map[string]string, error) {
	if len(src.s.partKeys) == 0 {
		return nil, fmt.Errorf("table %s is not partitioned", src.s.table)
	}
	src.keep = keep
	files, err := listFiles(src.s.path, src.s.regex)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", src.s.table, err)
	}
	seen := map[string]map[string]string{}
	for _, f := range files {
		spec, ok := partitionSpec(src.s.path, f.Path, src.s.partKeys)
		if !ok {
			continue
		}
		k := src.partitionPath(spec)
		if _, dup := seen[k]; dup {
			continue
		}
		in, err := src.keepPartition(spec)
		if err != nil {
			return nil, fmt.Errorf("table %s: %s: %w", src.s.table, f.Path, err)
		}
		if in {
			seen[k] = spec
		}
	}
	paths := make([]string, 0, len(seen))
	for p := range seen {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := make([]map[string]string, len(paths))
	for i, p := range paths {
		out[i] = seen[p]
	}
	return out, nil
}

// partitionPath renders a partition as its relative directory k1=v1/k2=v2.
func (src *Source) partitionPath(spec map[string]string) string {
	parts := make([]string, len(src.s.partKeys))
	for i, k := range src.s.partKeys {
		parts[i] = k + "=" + spec[k]
	}
	return strings.Join(parts, "/")
}

// keepPartition converts a partition's values and asks the pruning predicate.
func (src *Source) keepPartition(spec map[string]string) (bool, error) {
	vals := make(map[string]any, len(spec))
	for _, k := range src.s.partKeys {
		idx := -1
		for i, n := range src.s.names {
			if n == k {
				idx = i
			}
		}
		if idx < 0 {
			continue
		}
		v, err := partitionValue(spec[k], src.s.types[idx], src.s.defaultPart)
		if err != nil {
			return false, err
		}
		vals[k] = v
	}
	return src.keep(vals), nil
}
