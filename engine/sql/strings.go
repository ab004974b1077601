package sql

// String methods: every node renders itself with Format.

// String renders the node as canonical Flink SQL (see Format).
func (n *Ident) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *ObjectName) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Property) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Hint) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Identifier) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Star) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *NumberLit) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *StringLit) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *BinaryLit) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *BoolLit) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *NullLit) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *UnknownLit) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *DateTimeLit) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *IntervalQualifier) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *IntervalLit) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *ParamExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *UnaryExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *BinaryExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *IsExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *IsDistinctFromExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *LikeExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *InExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *BetweenExpr) String() string { return Format(n) }

func (n *QuantifiedExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *ExistsExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *SubqueryExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *CastExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *When) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *CaseExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Symbol) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *JSONBehavior) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *FuncCall) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *RowExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *ArrayExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *MapExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *IndexExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *FieldExpr) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Descriptor) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *TableArg) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *NamedArg) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *DataType) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *RowField) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *OrderItem) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *FrameBound) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *WindowFrame) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *WindowSpec) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *NamedWindow) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *CTE) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *With) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Query) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *SelectItem) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *GroupingElement) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Select) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *SetOp) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Values) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *TableRef) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *DerivedTable) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *TableFunc) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Unnest) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Join) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Insert) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Delete) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Assignment) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Update) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Call) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *CompilePlan) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *ExecutePlan) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *StatementSet) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Execute) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *BeginStatementSet) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *End) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *ColumnDef) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Watermark) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *TableConstraint) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *LikeOption) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *TableLike) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Distribution) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *CreateTable) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *CreateView) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *CreateDatabase) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *CreateCatalog) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *CreateFunction) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *FunctionResource) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Drop) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *PartitionSpec) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *AlterTable) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *AlterView) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *AlterDatabase) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *AlterCatalog) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *AlterFunction) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Use) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *UseModules) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *LoadModule) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *UnloadModule) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *LikePattern) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Show) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *ShowCreate) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Describe) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Explain) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Set) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Reset) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *StopJob) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Jar) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Analyze) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *Truncate) String() string { return Format(n) }

// String renders the node as canonical Flink SQL (see Format).
func (n *ClientCommand) String() string { return Format(n) }
