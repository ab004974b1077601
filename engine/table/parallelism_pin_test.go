package table

import "github.com/riffle-sql/riffle/engine/config"

// atParallelismOne sets parallelism.default to 1 on env and returns it,
// for tests that are not about parallelism but whose expectations are in
// the order one task gives (a changelog, a PTF's per-key row counts, a
// lookup cache's hits) or are print sink lines without Flink's "N>"
// subtask prefix: the engine's default is the number of cores.
func atParallelismOne(env *TableEnvironment) *TableEnvironment {
	env.Config().Set(config.Parallelism.Key, "1")
	return env
}
