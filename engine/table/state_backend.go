package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/config"
	rt "github.com/riffle-sql/riffle/engine/internal/runtime"
)

// stateBackend reads state.backend.type and the disk state backend's
// options (config/state_backend_options.go): nil for 'hashmap' (state in
// memory, the default), the disk backend's configuration for 'rocksdb'
// or 'forst' (Riffle's disk backend is built on pebble, the Go peer of
// RocksDB; both names select it). Another name is an error.
func (t *TableEnvironment) stateBackend() (*rt.DiskStateConfig, error) {
	conf := t.config.conf
	get := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := conf.Get(k); ok && strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	switch b := strings.ToLower(get(config.StateBackendType.Key)); b {
	case "", "hashmap":
		return nil, nil
	case "rocksdb", "forst":
	default:
		return nil, fmt.Errorf("Unknown state backend '%s' (state.backend.type): expected hashmap, rocksdb or forst.", b)
	}
	size := func(o config.Option) (int64, error) {
		v := get(o.Key)
		if v == "" {
			v = o.Default
		}
		n, err := config.ParseMemorySize(v)
		if err != nil || n < 1024 {
			return 0, fmt.Errorf("Could not parse value '%s' for key '%s' (expected a memory size of at least 1 kb, such as '64 mb').", v, o.Key)
		}
		return n, nil
	}
	c := &rt.DiskStateConfig{}
	var err error
	if c.Store.BlockCache, err = size(config.RocksDBBlockCacheSize); err != nil {
		return nil, err
	}
	if c.Store.WriteBuffer, err = size(config.RocksDBWriteBufferSize); err != nil {
		return nil, err
	}
	if dir := get(config.RocksDBLocalDir.Key, config.ForStLocalDir.Key, config.TaskManagerWorkingDir.Key); dir != "" {
		if c.Store.Dir, err = localPath(config.RocksDBLocalDir.Key, dir); err != nil {
			return nil, err
		}
	}
	if v := get(config.StateBackendCacheEntries.Key); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("Could not parse value '%s' for key '%s' (expected a positive integer).", v, config.StateBackendCacheEntries.Key)
		}
		c.CacheEntries = n
	}
	return c, nil
}
