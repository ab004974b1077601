package sql

// CreateMaterializedTable is Flink's CREATE MATERIALIZED TABLE:
//
//	CREATE MATERIALIZED TABLE [catalog.][db.]name
//	  [( [CONSTRAINT c] PRIMARY KEY (col, ...) NOT ENFORCED )]
//	  [COMMENT '...'] [PARTITIONED BY (col, ...)] [WITH ('k' = 'v', ...)]
//	  [START_MODE = FROM_BEGINNING]
//	  [FRESHNESS = INTERVAL '<n>' SECOND|MINUTE|HOUR|DAY|WEEK]
//	  [REFRESH_MODE = CONTINUOUS|FULL]
//	  AS query
type CreateMaterializedTable struct {
	Span
	Name *ObjectName
	// Constraint is the PRIMARY KEY of the parenthesised part, or nil.
	Constraint  *TableConstraint
	Comment     *string
	PartitionBy []*Ident
	Options     []*Property
	// StartMode is "" or the word after START_MODE = (FROM_BEGINNING).
	StartMode string
	// Freshness is the FRESHNESS interval, or nil when absent.
	Freshness *IntervalLit
	// RefreshMode is "", "CONTINUOUS" or "FULL".
	RefreshMode string
	Query       *Query
}

// AlterMaterializedTable is ALTER MATERIALIZED TABLE name followed by
// SUSPEND, RESUME [WITH (...)], REFRESH [PARTITION (...)] or AS query.
type AlterMaterializedTable struct {
	Span
	Name *ObjectName
	// Op is "SUSPEND", "RESUME", "REFRESH" or "AS".
	Op string
	// Options are RESUME's dynamic options.
	Options []*Property
	// Partition is REFRESH's partition spec.
	Partition []*Property
	// Query is the new definition of AS.
	Query *Query
}

func (*CreateMaterializedTable) stmtNode() {}
func (*AlterMaterializedTable) stmtNode()  {}

func (n *CreateMaterializedTable) String() string { return Format(n) }
func (n *AlterMaterializedTable) String() string  { return Format(n) }
