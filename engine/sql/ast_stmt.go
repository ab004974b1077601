package sql

// ---------------------------------------------------------------------------
// Statements: DML

// Insert is INSERT INTO|OVERWRITE table [hints] [PARTITION (k = v, ...)]
// [(cols)] query. Also used inside STATEMENT SET and EXECUTE.
type Insert struct {
	Span
	Overwrite bool
	// Upsert is set by UPSERT INTO (Calcite syntax).
	Upsert    bool
	Table     *ObjectName
	Hints     []*Hint
	Partition []*Property
	Columns   []*Ident
	Source    *Query
	// OnConflict is "", "ERROR", "NOTHING" or "DEDUPLICATE" for ON
	// CONFLICT DO ... (Flink 2.x).
	OnConflict string
}

// Delete is DELETE FROM table [[AS] alias] [WHERE cond] (batch row-level
// delete).
type Delete struct {
	Span
	Table *ObjectName
	Alias *Ident
	Where Expr
}

// Assignment is one column = expr of UPDATE ... SET.
type Assignment struct {
	Span
	Column *Identifier
	Value  Expr
}

// Update is UPDATE table [[AS] alias] SET col = expr, ... [WHERE cond]
// (batch row-level update).
type Update struct {
	Span
	Table *ObjectName
	Alias *Ident
	Set   []*Assignment
	Where Expr
}

// Call is CALL procedure(args), e.g. CALL cat.`system`.compact('t').
type Call struct {
	Span
	Call *FuncCall
}

// CompilePlan is COMPILE [AND EXECUTE] PLAN 'file' [IF NOT EXISTS] FOR
// stmt, where Stmt is an *Insert or *StatementSet.
type CompilePlan struct {
	Span
	Path        string
	IfNotExists bool
	AndExecute  bool
	Stmt        Statement
}

// ExecutePlan is EXECUTE PLAN 'file'.
type ExecutePlan struct {
	Span
	Path string
}

// StatementSet is STATEMENT SET BEGIN stmt; ... END (the body of EXECUTE
// STATEMENT SET, or of EXPLAIN STATEMENT SET).
type StatementSet struct {
	Span
	Statements []*Insert
}

// Execute is EXECUTE stmt, where Stmt is an *Insert, a *StatementSet or a
// *Query.
type Execute struct {
	Span
	Stmt Statement
}

// BeginStatementSet is the SQL Client's BEGIN STATEMENT SET; the inserts
// that follow arrive as separate statements until an End statement.
type BeginStatementSet struct {
	Span
}

// End is the END that closes a SQL Client statement set.
type End struct {
	Span
}

// ---------------------------------------------------------------------------
// Statements: DDL

// ColumnKind distinguishes the kinds of column definitions.
type ColumnKind uint8

// Column kinds.
const (
	// ColumnPhysical is name TYPE.
	ColumnPhysical ColumnKind = iota
	// ColumnComputed is name AS expr.
	ColumnComputed
	// ColumnMetadata is name TYPE METADATA [FROM 'key'] [VIRTUAL].
	ColumnMetadata
	// ColumnNameOnly is a bare column name without type, allowed only in
	// the schema part of CREATE/REPLACE TABLE ... AS query.
	ColumnNameOnly
)

// ColumnDef is one column definition of CREATE TABLE / ALTER TABLE.
type ColumnDef struct {
	Span
	// Name is the column name. For a nested column of ALTER TABLE
	// ADD/MODIFY (row_col.f2 INT), Parent holds the leading parts
	// ([row_col]) and Name the last one (f2).
	Name   *Ident
	Parent []*Ident
	Kind   ColumnKind
	// Type is set for physical and metadata columns.
	Type *DataType
	// Expr is the expression of a computed column.
	Expr Expr
	// MetadataKey is the 'key' of METADATA FROM 'key', or nil.
	MetadataKey *string
	// Virtual is set for METADATA ... VIRTUAL.
	Virtual bool
	// Constraint is an inline column constraint: [CONSTRAINT name] PRIMARY
	// KEY|UNIQUE [[NOT] ENFORCED]; its Columns list is empty. Nil when
	// absent.
	Constraint *TableConstraint
	// Comment is the column comment, or nil.
	Comment *string
	// Position is the ALTER TABLE ADD/MODIFY column position: "", "FIRST"
	// or "AFTER"; After names the reference column (possibly nested).
	Position string
	After    *Identifier
}

// Watermark is WATERMARK FOR column AS expr.
type Watermark struct {
	Span
	// Column is the rowtime column (may be nested: a.b).
	Column *Identifier
	Expr   Expr
}

// TableConstraint is [CONSTRAINT name] PRIMARY KEY (cols) [[NOT] ENFORCED]
// (UNIQUE is accepted too and rejected later by Flink, as is a primary key
// without NOT ENFORCED). As a column constraint Columns is empty.
type TableConstraint struct {
	Span
	Name *Ident
	// Kind is "PRIMARY KEY" or "UNIQUE".
	Kind    string
	Columns []*Ident
	// Enforced reports an explicit ENFORCED; NotEnforced an explicit NOT
	// ENFORCED. Neither is set when the clause is absent.
	Enforced    bool
	NotEnforced bool
}

// LikeOption is one option of CREATE TABLE ... LIKE t (option, ...):
// INCLUDING|EXCLUDING|OVERWRITING ALL|CONSTRAINTS|GENERATED|METADATA|
// OPTIONS|PARTITIONS|WATERMARKS|DISTRIBUTION.
type LikeOption struct {
	Span
	// Strategy is "INCLUDING", "EXCLUDING" or "OVERWRITING".
	Strategy string
	// Feature is "ALL", "CONSTRAINTS", "GENERATED", "METADATA", "OPTIONS",
	// "PARTITIONS", "WATERMARKS" or "DISTRIBUTION".
	Feature string
}

// TableLike is the LIKE clause of CREATE TABLE.
type TableLike struct {
	Span
	Table   *ObjectName
	Options []*LikeOption
}

// Distribution is DISTRIBUTED BY [HASH|RANGE](cols) [INTO n BUCKETS] or
// DISTRIBUTED INTO n BUCKETS (Flink 1.20+).
type Distribution struct {
	Span
	// Kind is "", "HASH" or "RANGE".
	Kind    string
	Columns []*Ident
	// Buckets is the n of INTO n BUCKETS, or 0 when absent.
	Buckets int
}

// CreateTable is CREATE [OR REPLACE] [TEMPORARY] TABLE [IF NOT EXISTS]
// name (...) ..., including CTAS (AsQuery set) and REPLACE TABLE ... AS.
type CreateTable struct {
	Span
	OrReplace   bool
	Replace     bool // REPLACE TABLE ... AS (without CREATE)
	Temporary   bool
	IfNotExists bool
	Name        *ObjectName
	// Columns, Watermarks and Constraints come from the parenthesised
	// schema part, in written order per kind.
	Columns      []*ColumnDef
	Watermarks   []*Watermark
	Constraints  []*TableConstraint
	Comment      *string
	Distribution *Distribution
	PartitionBy  []*Ident
	Options      []*Property
	Like         *TableLike
	AsQuery      *Query
}

// CreateView is CREATE [TEMPORARY] VIEW [IF NOT EXISTS] name [(cols)]
// [COMMENT '...'] AS query.
type CreateView struct {
	Span
	Temporary   bool
	IfNotExists bool
	Name        *ObjectName
	Columns     []*Ident
	Comment     *string
	Query       *Query
}

// CreateDatabase is CREATE DATABASE [IF NOT EXISTS] [catalog.]db [COMMENT
// '...'] [WITH (...)].
type CreateDatabase struct {
	Span
	IfNotExists bool
	Name        *ObjectName
	Comment     *string
	Options     []*Property
}

// CreateCatalog is CREATE CATALOG [IF NOT EXISTS] name [COMMENT '...']
// WITH (...).
type CreateCatalog struct {
	Span
	IfNotExists bool
	Name        *Ident
	Comment     *string
	Options     []*Property
}

// CreateFunction is CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS]
// name AS 'identifier' [LANGUAGE JAVA|SCALA|PYTHON|GO|...] [USING JAR
// 'path', ...].
type CreateFunction struct {
	Span
	OrReplace   bool
	Temporary   bool
	System      bool
	IfNotExists bool
	Name        *ObjectName
	// Class is the function identifier string (class name, Go symbol...).
	Class string
	// Language is the upper-case language or "".
	Language string
	// Resources are the USING JAR|ARTIFACT '...' resources.
	Resources []*FunctionResource
	// Options are the WITH (...) options.
	Options []*Property
}

// FunctionResource is one JAR 'path' or ARTIFACT 'path' of CREATE FUNCTION
// ... USING.
type FunctionResource struct {
	Span
	// Kind is "JAR" or "ARTIFACT".
	Kind string
	Path string
}

// DropKind is the object kind of a Drop statement.
type DropKind uint8

// Drop kinds.
const (
	// DropTable is DROP TABLE; the others follow the same pattern.
	DropTable DropKind = iota
	DropView
	DropDatabase
	DropCatalog
	DropFunction
	// DropModel and DropMaterializedTable are parsed for completeness;
	// Riffle has no models or materialized tables.
	DropModel
	DropMaterializedTable
)

var dropKindNames = [...]string{"TABLE", "VIEW", "DATABASE", "CATALOG", "FUNCTION", "MODEL", "MATERIALIZED TABLE"}

// String renders the kind as its SQL keyword(s).
func (k DropKind) String() string {
	if int(k) < len(dropKindNames) {
		return dropKindNames[k]
	}
	return "?"
}

// Drop is DROP [TEMPORARY [SYSTEM]] TABLE|VIEW|DATABASE|CATALOG|FUNCTION
// [IF EXISTS] name [RESTRICT|CASCADE].
type Drop struct {
	Span
	Kind      DropKind
	Temporary bool
	System    bool
	IfExists  bool
	Name      *ObjectName
	// Behavior is "", "RESTRICT" or "CASCADE" (DROP DATABASE).
	Behavior string
}

// AlterTableOp is the action of an AlterTable statement.
type AlterTableOp uint8

// ALTER TABLE actions.
const (
	// AlterRename is RENAME TO NewName.
	AlterRename AlterTableOp = iota
	// AlterSet is SET (options).
	AlterSet
	// AlterReset is RESET (keys).
	AlterReset
	// AlterAdd is ADD column | ADD (schema items) | ADD constraint |
	// ADD watermark.
	AlterAdd
	// AlterModify is MODIFY ... with the same shape as ADD.
	AlterModify
	// AlterDropColumns is DROP col | DROP (col, ...).
	AlterDropColumns
	// AlterDropPrimaryKey is DROP PRIMARY KEY.
	AlterDropPrimaryKey
	// AlterDropConstraint is DROP CONSTRAINT name.
	AlterDropConstraint
	// AlterDropWatermark is DROP WATERMARK.
	AlterDropWatermark
	// AlterRenameColumn is RENAME col TO newcol.
	AlterRenameColumn
	// AlterDistribution is ADD/MODIFY DISTRIBUTION ... or DROP DISTRIBUTION.
	AlterDistribution
	// AlterCompact is [PARTITION (...)] COMPACT (Partition holds the spec).
	AlterCompact
	// AlterAddPartitions is ADD [IF NOT EXISTS] PARTITION (...) [WITH
	// (...)] ...; AlterDropPartitions is DROP [IF EXISTS] PARTITION (...),
	// ...
	AlterAddPartitions
	AlterDropPartitions
)

// PartitionSpec is one PARTITION (k = v, ...) [WITH (options)] of ALTER
// TABLE ADD/DROP PARTITION.
type PartitionSpec struct {
	Span
	Spec    []*Property
	Options []*Property
}

// AlterTable is ALTER TABLE [IF EXISTS] name action.
type AlterTable struct {
	Span
	IfExists bool
	Name     *ObjectName
	Op       AlterTableOp
	// NewName is the target of RENAME TO.
	NewName *ObjectName
	// Options are the SET options; ResetKeys the RESET keys.
	Options   []*Property
	ResetKeys []string
	// Columns, Watermark and Constraint are the ADD/MODIFY schema items.
	// Parenthesised reports the ADD (...) form.
	Columns       []*ColumnDef
	Watermark     *Watermark
	Constraint    *TableConstraint
	Parenthesised bool
	// DropColumns are the columns of DROP col / DROP (cols).
	DropColumns []*Identifier
	// ConstraintName is the name of DROP CONSTRAINT.
	ConstraintName *Ident
	// OldColumn and NewColumn are the names of RENAME col TO newcol.
	OldColumn *Identifier
	NewColumn *Identifier
	// Partitions are the specs of ADD/DROP PARTITION; PartitionIfCond is
	// set by IF NOT EXISTS (ADD) or IF EXISTS (DROP).
	Partitions      []*PartitionSpec
	PartitionIfCond bool
	// Partition is the optional spec of [PARTITION (...)] COMPACT.
	Partition []*Property
	// Distribution is the ADD/MODIFY DISTRIBUTION spec; DistributionVerb
	// is "ADD", "MODIFY" or "DROP".
	Distribution     *Distribution
	DistributionVerb string
}

// AlterView is ALTER VIEW name RENAME TO newname | AS query.
type AlterView struct {
	Span
	Name    *ObjectName
	NewName *ObjectName
	Query   *Query
}

// AlterDatabase is ALTER DATABASE name SET (options).
type AlterDatabase struct {
	Span
	Name    *ObjectName
	Options []*Property
}

// AlterCatalog is ALTER CATALOG name SET (options) | RESET (keys) |
// COMMENT 'text'.
type AlterCatalog struct {
	Span
	Name      *Ident
	Options   []*Property
	ResetKeys []string
	Comment   *string
}

// AlterFunction is ALTER [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] name AS
// 'identifier' [LANGUAGE ...].
type AlterFunction struct {
	Span
	Temporary bool
	System    bool
	IfExists  bool
	Name      *ObjectName
	Class     string
	Language  string
}

// ---------------------------------------------------------------------------
// Statements: utility

// Use is USE [catalog.]db or USE CATALOG name.
type Use struct {
	Span
	Catalog bool
	Name    *ObjectName
}

// UseModules is USE MODULES a, b, ...
type UseModules struct {
	Span
	Names []*Ident
}

// LoadModule is LOAD MODULE name [WITH (...)].
type LoadModule struct {
	Span
	Name    *Ident
	Options []*Property
}

// UnloadModule is UNLOAD MODULE name.
type UnloadModule struct {
	Span
	Name *Ident
}

// LikePattern is the [NOT] LIKE|ILIKE 'pattern' filter of SHOW statements.
type LikePattern struct {
	Span
	Not     bool
	ILike   bool
	Pattern string
}

// Show is one of the SHOW statements that list things:
//
//	SHOW CATALOGS | CURRENT CATALOG | DATABASES | CURRENT DATABASE |
//	TABLES | VIEWS | FUNCTIONS | USER FUNCTIONS | MODULES | FULL MODULES |
//	JOBS | JARS | COLUMNS | PARTITIONS | PROCEDURES | MODELS |
//	MATERIALIZED TABLES | CONNECTIONS
//
// with the optional FROM/IN object, partition spec and LIKE filter.
type Show struct {
	Span
	// What is the upper-case object kind, e.g. "TABLES", "USER FUNCTIONS".
	What string
	// FromKeyword is "", "FROM" or "IN"; From is the object named after it
	// (a database for TABLES, a table for COLUMNS/PARTITIONS).
	FromKeyword string
	From        *ObjectName
	Partition   []*Property
	Like        *LikePattern
}

// ShowCreate is SHOW CREATE TABLE|VIEW|CATALOG|MATERIALIZED TABLE|MODEL name.
type ShowCreate struct {
	Span
	// Kind is "TABLE", "VIEW", "CATALOG", "MATERIALIZED TABLE" or "MODEL".
	Kind string
	Name *ObjectName
}

// Describe is DESCRIBE|DESC [EXTENDED] [kind] name. Kind is "" (table),
// "CATALOG", "DATABASE", "FUNCTION", "MODEL" or "JOB"; for JOB, JobID holds
// the id string.
type Describe struct {
	Span
	Extended bool
	Kind     string
	Name     *ObjectName
	JobID    string
}

// Explain is EXPLAIN [PLAN FOR | detail, ...] statement.
type Explain struct {
	Span
	// Details are the upper-case explain details: ESTIMATED_COST,
	// CHANGELOG_MODE, JSON_EXECUTION_PLAN, PLAN_ADVICE.
	Details []string
	// PlanFor reports the EXPLAIN PLAN FOR form.
	PlanFor bool
	// Stmt is the explained statement: *Query, *Insert, *StatementSet,
	// *CreateTable (CTAS) or *Execute.
	Stmt Statement
}

// Set is SET, SET 'key' = 'value', or the unquoted SET key = value form.
// Key is "" for a bare SET.
type Set struct {
	Span
	Key   string
	Value string
	// Quoted reports whether the key and value were string literals.
	Quoted bool
}

// Reset is RESET or RESET 'key'. Key is "" for a bare RESET.
type Reset struct {
	Span
	Key    string
	Quoted bool
}

// StopJob is STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN].
type StopJob struct {
	Span
	JobID         string
	WithSavepoint bool
	WithDrain     bool
}

// Jar is ADD JAR 'path' or REMOVE JAR 'path' (the engine refuses them).
type Jar struct {
	Span
	// Verb is "ADD" or "REMOVE".
	Verb string
	Path string
}

// Analyze is ANALYZE TABLE name [PARTITION (...)] COMPUTE STATISTICS [FOR
// COLUMNS a, b | FOR ALL COLUMNS].
type Analyze struct {
	Span
	Table      *ObjectName
	Partition  []*Property
	Columns    []*Ident
	AllColumns bool
}

// Truncate is TRUNCATE TABLE name.
type Truncate struct {
	Span
	Table *ObjectName
}

// ClientCommand is a SQL Client command: HELP, QUIT, EXIT or CLEAR.
type ClientCommand struct {
	Span
	// Command is upper case: "HELP", "QUIT", "EXIT" or "CLEAR".
	Command string
}
