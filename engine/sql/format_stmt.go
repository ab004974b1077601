package sql

import "strconv"

func (p *printer) optComment(c *string) {
	if c != nil {
		p.nl()
		p.w("COMMENT ")
		p.str(*c)
	}
}

func (p *printer) stmt(s Statement) {
	switch s := s.(type) {
	case *Query:
		p.query(s)
	case *Insert:
		p.insert(s)
	case *StatementSet:
		p.w("STATEMENT SET BEGIN")
		p.indent++
		for _, ins := range s.Statements {
			p.nl()
			p.insert(ins)
			p.w(";")
		}
		p.indent--
		p.nl()
		p.w("END")
	case *Execute:
		p.w("EXECUTE ")
		p.stmt(s.Stmt)
	case *BeginStatementSet:
		p.w("BEGIN STATEMENT SET")
	case *End:
		p.w("END")
	case *CreateTable:
		p.createTable(s)
	case *CreateMaterializedTable:
		p.createMaterializedTable(s)
	case *AlterMaterializedTable:
		p.alterMaterializedTable(s)
	case *CreateView:
		p.w("CREATE ")
		if s.Temporary {
			p.w("TEMPORARY ")
		}
		p.w("VIEW ")
		if s.IfNotExists {
			p.w("IF NOT EXISTS ")
		}
		p.objName(s.Name)
		if len(s.Columns) > 0 {
			p.w(" (")
			p.idents(s.Columns)
			p.w(")")
		}
		p.optComment(s.Comment)
		p.w(" AS")
		p.nl()
		p.query(s.Query)
	case *CreateDatabase:
		p.w("CREATE DATABASE ")
		if s.IfNotExists {
			p.w("IF NOT EXISTS ")
		}
		p.objName(s.Name)
		p.optComment(s.Comment)
		if s.Options != nil {
			p.nl()
			p.w("WITH ")
			p.props(s.Options)
		}
	case *CreateCatalog:
		p.w("CREATE CATALOG ")
		if s.IfNotExists {
			p.w("IF NOT EXISTS ")
		}
		p.ident(s.Name)
		p.optComment(s.Comment)
		if s.Options != nil {
			p.nl()
			p.w("WITH ")
			p.props(s.Options)
		}
	case *CreateFunction:
		p.w("CREATE ")
		if s.OrReplace {
			p.w("OR REPLACE ")
		}
		if s.Temporary {
			p.w("TEMPORARY ")
			if s.System {
				p.w("SYSTEM ")
			}
		}
		p.w("FUNCTION ")
		if s.IfNotExists {
			p.w("IF NOT EXISTS ")
		}
		p.objName(s.Name)
		p.w(" AS ")
		p.str(s.Class)
		if s.Language != "" {
			p.w(" LANGUAGE " + s.Language)
		}
		if len(s.Resources) > 0 {
			p.w(" USING ")
			for i, r := range s.Resources {
				if i > 0 {
					p.w(", ")
				}
				p.w(r.Kind + " ")
				p.str(r.Path)
			}
		}
		if s.Options != nil {
			p.nl()
			p.w("WITH ")
			p.props(s.Options)
		}
	case *Drop:
		p.w("DROP ")
		if s.Temporary {
			p.w("TEMPORARY ")
			if s.System {
				p.w("SYSTEM ")
			}
		}
		p.w(s.Kind.String() + " ")
		if s.IfExists {
			p.w("IF EXISTS ")
		}
		p.objName(s.Name)
		if s.Behavior != "" {
			p.w(" " + s.Behavior)
		}
	case *AlterTable:
		p.alterTable(s)
	case *AlterView:
		p.w("ALTER VIEW ")
		p.objName(s.Name)
		if s.NewName != nil {
			p.w(" RENAME TO ")
			p.objName(s.NewName)
		} else {
			p.w(" AS")
			p.nl()
			p.query(s.Query)
		}
	case *AlterDatabase:
		p.w("ALTER DATABASE ")
		p.objName(s.Name)
		p.w(" SET ")
		p.props(s.Options)
	case *AlterCatalog:
		p.w("ALTER CATALOG ")
		p.ident(s.Name)
		switch {
		case s.Options != nil:
			p.w(" SET ")
			p.props(s.Options)
		case s.ResetKeys != nil:
			p.w(" RESET ")
			p.keyList(s.ResetKeys)
		case s.Comment != nil:
			p.w(" COMMENT ")
			p.str(*s.Comment)
		}
	case *AlterFunction:
		p.w("ALTER ")
		if s.Temporary {
			p.w("TEMPORARY ")
			if s.System {
				p.w("SYSTEM ")
			}
		}
		p.w("FUNCTION ")
		if s.IfExists {
			p.w("IF EXISTS ")
		}
		p.objName(s.Name)
		p.w(" AS ")
		p.str(s.Class)
		if s.Language != "" {
			p.w(" LANGUAGE " + s.Language)
		}
	case *Use:
		p.w("USE ")
		if s.Catalog {
			p.w("CATALOG ")
		}
		p.objName(s.Name)
	case *UseModules:
		p.w("USE MODULES ")
		p.idents(s.Names)
	case *LoadModule:
		p.w("LOAD MODULE ")
		p.ident(s.Name)
		if s.Options != nil {
			p.w(" WITH ")
			p.props(s.Options)
		}
	case *UnloadModule:
		p.w("UNLOAD MODULE ")
		p.ident(s.Name)
	case *Show:
		p.w("SHOW " + s.What)
		if s.FromKeyword != "" {
			p.w(" " + s.FromKeyword + " ")
			p.objName(s.From)
		} else if s.From != nil {
			p.w(" ")
			p.objName(s.From)
		}
		if s.Partition != nil {
			p.w(" PARTITION ")
			p.partSpec(s.Partition)
		}
		if s.Like != nil {
			p.w(" ")
			p.likePattern(s.Like)
		}
	case *ShowCreate:
		p.w("SHOW CREATE " + s.Kind + " ")
		p.objName(s.Name)
	case *Describe:
		p.w("DESCRIBE ")
		if s.Kind != "" {
			p.w(s.Kind + " ")
		}
		if s.Extended {
			p.w("EXTENDED ")
		}
		if s.Kind == "JOB" {
			p.str(s.JobID)
		} else {
			p.objName(s.Name)
		}
	case *Explain:
		p.w("EXPLAIN ")
		if s.PlanFor {
			p.w("PLAN FOR ")
		}
		for i, d := range s.Details {
			if i > 0 {
				p.w(", ")
			}
			p.w(d)
		}
		if len(s.Details) > 0 {
			p.w(" ")
		}
		p.nl2()
		p.stmt(s.Stmt)
	case *Set:
		p.w("SET")
		if s.Key != "" || s.Value != "" {
			if s.Quoted || p.canonical || p.pretty {
				p.w(" ")
				p.str(s.Key)
				p.w(" = ")
				p.str(s.Value)
			} else {
				p.w(" " + s.Key + " = " + s.Value)
			}
		}
	case *Reset:
		p.w("RESET")
		if s.Key != "" {
			if s.Quoted || p.canonical || p.pretty {
				p.w(" ")
				p.str(s.Key)
			} else {
				p.w(" " + s.Key)
			}
		}
	case *StopJob:
		p.w("STOP JOB ")
		p.str(s.JobID)
		if s.WithSavepoint {
			p.w(" WITH SAVEPOINT")
		}
		if s.WithDrain {
			p.w(" WITH DRAIN")
		}
	case *Jar:
		p.w(s.Verb + " JAR ")
		p.str(s.Path)
	case *Analyze:
		p.w("ANALYZE TABLE ")
		p.objName(s.Table)
		if s.Partition != nil {
			p.w(" PARTITION ")
			p.partSpec(s.Partition)
		}
		p.w(" COMPUTE STATISTICS")
		if s.AllColumns {
			p.w(" FOR ALL COLUMNS")
		} else if len(s.Columns) > 0 {
			p.w(" FOR COLUMNS ")
			p.idents(s.Columns)
		}
	case *Truncate:
		p.w("TRUNCATE TABLE ")
		p.objName(s.Table)
	case *ClientCommand:
		p.w(s.Command)
	case *Delete:
		p.w("DELETE FROM ")
		p.objName(s.Table)
		if s.Alias != nil {
			p.w(" AS ")
			p.ident(s.Alias)
		}
		if s.Where != nil {
			p.nl()
			p.w("WHERE ")
			p.expr(s.Where)
		}
	case *Update:
		p.w("UPDATE ")
		p.objName(s.Table)
		if s.Alias != nil {
			p.w(" AS ")
			p.ident(s.Alias)
		}
		p.nl()
		p.w("SET ")
		for i, a := range s.Set {
			if i > 0 {
				p.w(", ")
			}
			p.parts(a.Column.Parts)
			p.w(" = ")
			p.expr(a.Value)
		}
		if s.Where != nil {
			p.nl()
			p.w("WHERE ")
			p.expr(s.Where)
		}
	case *Call:
		p.w("CALL ")
		p.funcCall(s.Call)
	case *ExecutePlan:
		p.w("EXECUTE PLAN ")
		p.str(s.Path)
	case *CompilePlan:
		p.w("COMPILE ")
		if s.AndExecute {
			p.w("AND EXECUTE ")
		}
		p.w("PLAN ")
		p.str(s.Path)
		if s.IfNotExists {
			p.w(" IF NOT EXISTS")
		}
		p.w(" FOR ")
		p.stmt(s.Stmt)
	}
}

// nl2 is a no-op placeholder kept for symmetry with nl in EXPLAIN output.
func (p *printer) nl2() {}

func (p *printer) keyList(keys []string) {
	p.w("(")
	for i, k := range keys {
		if i > 0 {
			p.w(", ")
		}
		p.str(k)
	}
	p.w(")")
}

func (p *printer) likePattern(l *LikePattern) {
	if l.Not {
		p.w("NOT ")
	}
	if l.ILike {
		p.w("ILIKE ")
	} else {
		p.w("LIKE ")
	}
	p.str(l.Pattern)
}

func (p *printer) insert(s *Insert) {
	switch {
	case s.Upsert:
		p.w("UPSERT INTO ")
	case s.Overwrite:
		p.w("INSERT OVERWRITE ")
	default:
		p.w("INSERT INTO ")
	}
	p.objName(s.Table)
	if len(s.Hints) > 0 {
		p.w(" ")
		p.hintList(s.Hints)
	}
	if s.Partition != nil {
		p.w(" PARTITION ")
		p.partSpec(s.Partition)
	}
	if len(s.Columns) > 0 {
		p.w(" (")
		p.idents(s.Columns)
		p.w(")")
	}
	p.nl()
	p.query(s.Source)
	if s.OnConflict != "" {
		p.nl()
		p.w("ON CONFLICT DO " + s.OnConflict)
	}
}

func (p *printer) columnDef(c *ColumnDef) {
	for _, x := range c.Parent {
		p.ident(x)
		p.w(".")
	}
	p.ident(c.Name)
	switch c.Kind {
	case ColumnNameOnly:
	case ColumnComputed:
		p.w(" AS ")
		p.expr(c.Expr)
	default:
		p.w(" ")
		p.dataType(c.Type)
		if c.Kind == ColumnMetadata {
			p.w(" METADATA")
			if c.MetadataKey != nil {
				p.w(" FROM ")
				p.str(*c.MetadataKey)
			}
			if c.Virtual {
				p.w(" VIRTUAL")
			}
		}
		if c.Constraint != nil {
			p.w(" ")
			p.constraint(c.Constraint)
		}
	}
	if c.Comment != nil {
		p.w(" COMMENT ")
		p.str(*c.Comment)
	}
	switch c.Position {
	case "FIRST":
		p.w(" FIRST")
	case "AFTER":
		p.w(" AFTER ")
		p.parts(c.After.Parts)
	}
}

func (p *printer) watermark(w *Watermark) {
	p.w("WATERMARK FOR ")
	p.parts(w.Column.Parts)
	p.w(" AS ")
	p.expr(w.Expr)
}

func (p *printer) constraint(c *TableConstraint) {
	if c.Name != nil {
		p.w("CONSTRAINT ")
		p.ident(c.Name)
		p.w(" ")
	}
	p.w(c.Kind)
	if len(c.Columns) > 0 {
		p.w(" (")
		p.idents(c.Columns)
		p.w(")")
	}
	if c.Enforced {
		p.w(" ENFORCED")
	} else if c.NotEnforced {
		p.w(" NOT ENFORCED")
	}
}

func (p *printer) distribution(d *Distribution) {
	p.w("DISTRIBUTED ")
	p.distributionBody(d)
}

func (p *printer) distributionBody(d *Distribution) {
	if len(d.Columns) > 0 {
		p.w("BY ")
		if d.Kind != "" {
			p.w(d.Kind)
		}
		p.w("(")
		p.idents(d.Columns)
		p.w(")")
		if d.Buckets > 0 {
			p.w(" ")
		}
	}
	if d.Buckets > 0 {
		p.w("INTO " + strconv.Itoa(d.Buckets) + " BUCKETS")
	}
}

func (p *printer) tableLike(l *TableLike) {
	p.w("LIKE ")
	p.objName(l.Table)
	if len(l.Options) > 0 {
		p.w(" (")
		p.indent++
		for i, o := range l.Options {
			if i > 0 && !p.pretty {
				p.w(" ")
			}
			p.brk()
			p.w(o.Strategy + " " + o.Feature)
		}
		p.indent--
		p.brk()
		p.w(")")
	}
}

// schemaItems writes the parenthesised column/constraint/watermark list.
func (p *printer) schemaItems(cols []*ColumnDef, cons []*TableConstraint, wms []*Watermark) {
	p.w("(")
	p.indent++
	n := 0
	sep := func() {
		if n > 0 {
			p.w(",")
			if !p.pretty {
				p.w(" ")
			}
		}
		n++
		p.brk()
	}
	for _, c := range cols {
		sep()
		p.columnDef(c)
	}
	for _, c := range cons {
		sep()
		p.constraint(c)
	}
	for _, w := range wms {
		sep()
		p.watermark(w)
	}
	p.indent--
	p.brk()
	p.w(")")
}

func (p *printer) createTable(s *CreateTable) {
	switch {
	case s.Replace:
		p.w("REPLACE ")
	case s.OrReplace:
		p.w("CREATE OR REPLACE ")
	default:
		p.w("CREATE ")
	}
	if s.Temporary {
		p.w("TEMPORARY ")
	}
	p.w("TABLE ")
	if s.IfNotExists {
		p.w("IF NOT EXISTS ")
	}
	p.objName(s.Name)
	if len(s.Columns)+len(s.Constraints)+len(s.Watermarks) > 0 {
		p.w(" ")
		p.schemaItems(s.Columns, s.Constraints, s.Watermarks)
	}
	p.optComment(s.Comment)
	if s.Distribution != nil {
		p.nl()
		p.distribution(s.Distribution)
	}
	if len(s.PartitionBy) > 0 {
		p.nl()
		p.w("PARTITIONED BY (")
		p.idents(s.PartitionBy)
		p.w(")")
	}
	if s.Options != nil {
		p.nl()
		p.w("WITH ")
		p.props(s.Options)
	}
	if s.Like != nil {
		p.nl()
		p.tableLike(s.Like)
	}
	if s.AsQuery != nil {
		p.nl()
		p.w("AS")
		p.nl()
		p.query(s.AsQuery)
	}
}

func (p *printer) alterTable(s *AlterTable) {
	p.w("ALTER TABLE ")
	if s.IfExists {
		p.w("IF EXISTS ")
	}
	p.objName(s.Name)
	switch s.Op {
	case AlterRename:
		p.w(" RENAME TO ")
		p.objName(s.NewName)
	case AlterRenameColumn:
		p.w(" RENAME ")
		p.parts(s.OldColumn.Parts)
		p.w(" TO ")
		p.parts(s.NewColumn.Parts)
	case AlterSet:
		p.w(" SET ")
		p.props(s.Options)
	case AlterReset:
		p.w(" RESET ")
		p.keyList(s.ResetKeys)
	case AlterAdd, AlterModify:
		if s.Op == AlterAdd {
			p.w(" ADD ")
		} else {
			p.w(" MODIFY ")
		}
		var cons []*TableConstraint
		if s.Constraint != nil {
			cons = []*TableConstraint{s.Constraint}
		}
		var wms []*Watermark
		if s.Watermark != nil {
			wms = []*Watermark{s.Watermark}
		}
		if s.Parenthesised {
			p.schemaItems(s.Columns, cons, wms)
			return
		}
		switch {
		case len(s.Columns) == 1:
			p.columnDef(s.Columns[0])
		case s.Constraint != nil:
			p.constraint(s.Constraint)
		case s.Watermark != nil:
			p.watermark(s.Watermark)
		}
	case AlterDropColumns:
		p.w(" DROP ")
		if s.Parenthesised {
			p.w("(")
		}
		for i, c := range s.DropColumns {
			if i > 0 {
				p.w(", ")
			}
			p.parts(c.Parts)
		}
		if s.Parenthesised {
			p.w(")")
		}
	case AlterDropPrimaryKey:
		p.w(" DROP PRIMARY KEY")
	case AlterDropConstraint:
		p.w(" DROP CONSTRAINT ")
		p.ident(s.ConstraintName)
	case AlterDropWatermark:
		p.w(" DROP WATERMARK")
	case AlterDistribution:
		p.w(" " + s.DistributionVerb + " DISTRIBUTION")
		if s.Distribution != nil {
			p.w(" ")
			p.distributionBody(s.Distribution)
		}
	case AlterCompact:
		if s.Partition != nil {
			p.w(" PARTITION ")
			p.partSpec(s.Partition)
		}
		p.w(" COMPACT")
	case AlterAddPartitions:
		p.w(" ADD")
		if s.PartitionIfCond {
			p.w(" IF NOT EXISTS")
		}
		for _, ps := range s.Partitions {
			p.w(" PARTITION ")
			p.partSpec(ps.Spec)
			if ps.Options != nil {
				p.w(" WITH ")
				p.props(ps.Options)
			}
		}
	case AlterDropPartitions:
		p.w(" DROP")
		if s.PartitionIfCond {
			p.w(" IF EXISTS")
		}
		for i, ps := range s.Partitions {
			if i > 0 {
				p.w(",")
			}
			p.w(" PARTITION ")
			p.partSpec(ps.Spec)
		}
	}
}
