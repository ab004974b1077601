// Package all registers every built-in connector and format: import it for
// its side effects (import _ ".../engine/connector/all") to make
// 'connector' = 'filesystem' | 'datagen' | 'print' | 'blackhole' | 'kafka' |
// 'upsert-kafka' | 'postgres-cdc' and
// 'format' = 'csv' | 'json' available.
package all

import (
	// Connectors.
	_ "github.com/riffle-sql/riffle/engine/connector/blackhole"
	_ "github.com/riffle-sql/riffle/engine/connector/datagen"
	_ "github.com/riffle-sql/riffle/engine/connector/filesystem"
	_ "github.com/riffle-sql/riffle/engine/connector/jdbc"
	_ "github.com/riffle-sql/riffle/engine/connector/kafka"
	_ "github.com/riffle-sql/riffle/engine/connector/nexmark"
	_ "github.com/riffle-sql/riffle/engine/connector/postgrescdc"
	_ "github.com/riffle-sql/riffle/engine/connector/print"

	// Formats.
	_ "github.com/riffle-sql/riffle/engine/connector/format/avro"
	_ "github.com/riffle-sql/riffle/engine/connector/format/cdcjson"
	_ "github.com/riffle-sql/riffle/engine/connector/format/csv"
	_ "github.com/riffle-sql/riffle/engine/connector/format/json"
	_ "github.com/riffle-sql/riffle/engine/connector/format/parquet"
	_ "github.com/riffle-sql/riffle/engine/connector/format/raw"
)
