package sqlitecatalog

import "github.com/riffle-sql/riffle/engine/catalog"

// The catalog.Catalog methods: reads run on the current image of the file
// (read again when it changed), changes in a write transaction (see
// Catalog). Objects, checks and errors are catalog.InMemoryCatalog's; a
// failure to read or write the file is an error naming it (a bool method
// then answers false).

var _ catalog.Catalog = (*Catalog)(nil)

// ListDatabases implements catalog.Catalog.
func (c *Catalog) ListDatabases() ([]string, error) {
	var out []string
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.ListDatabases()
		return err
	})
	return out, err
}

// GetDatabase implements catalog.Catalog.
func (c *Catalog) GetDatabase(name string) (*catalog.Database, error) {
	var out *catalog.Database
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.GetDatabase(name)
		return err
	})
	return out, err
}

// DatabaseExists implements catalog.Catalog.
func (c *Catalog) DatabaseExists(name string) bool {
	var ok bool
	c.read(func(m *catalog.InMemoryCatalog) error { ok = m.DatabaseExists(name); return nil })
	return ok
}

// CreateDatabase implements catalog.Catalog.
func (c *Catalog) CreateDatabase(name string, db *catalog.Database, ignoreIfExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.CreateDatabase(name, db, ignoreIfExists) })
}

// DropDatabase implements catalog.Catalog.
func (c *Catalog) DropDatabase(name string, ignoreIfNotExists, cascade bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.DropDatabase(name, ignoreIfNotExists, cascade) })
}

// AlterDatabase implements catalog.Catalog.
func (c *Catalog) AlterDatabase(name string, db *catalog.Database, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.AlterDatabase(name, db, ignoreIfNotExists) })
}

// ListTables implements catalog.Catalog.
func (c *Catalog) ListTables(db string) ([]string, error) {
	var out []string
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.ListTables(db)
		return err
	})
	return out, err
}

// ListViews implements catalog.Catalog.
func (c *Catalog) ListViews(db string) ([]string, error) {
	var out []string
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.ListViews(db)
		return err
	})
	return out, err
}

// GetTable implements catalog.Catalog.
func (c *Catalog) GetTable(p catalog.ObjectPath) (catalog.BaseTable, error) {
	var out catalog.BaseTable
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.GetTable(p)
		return err
	})
	return out, err
}

// TableExists implements catalog.Catalog.
func (c *Catalog) TableExists(p catalog.ObjectPath) bool {
	var ok bool
	c.read(func(m *catalog.InMemoryCatalog) error { ok = m.TableExists(p); return nil })
	return ok
}

// CreateTable implements catalog.Catalog.
func (c *Catalog) CreateTable(p catalog.ObjectPath, t catalog.BaseTable, ignoreIfExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.CreateTable(p, t, ignoreIfExists) })
}

// DropTable implements catalog.Catalog.
func (c *Catalog) DropTable(p catalog.ObjectPath, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.DropTable(p, ignoreIfNotExists) })
}

// AlterTable implements catalog.Catalog.
func (c *Catalog) AlterTable(p catalog.ObjectPath, t catalog.BaseTable, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.AlterTable(p, t, ignoreIfNotExists) })
}

// RenameTable implements catalog.Catalog.
func (c *Catalog) RenameTable(p catalog.ObjectPath, newName string, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.RenameTable(p, newName, ignoreIfNotExists) })
}

// ListFunctions implements catalog.Catalog.
func (c *Catalog) ListFunctions(db string) ([]string, error) {
	var out []string
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.ListFunctions(db)
		return err
	})
	return out, err
}

// GetFunction implements catalog.Catalog.
func (c *Catalog) GetFunction(p catalog.ObjectPath) (*catalog.Function, error) {
	var out *catalog.Function
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.GetFunction(p)
		return err
	})
	return out, err
}

// FunctionExists implements catalog.Catalog.
func (c *Catalog) FunctionExists(p catalog.ObjectPath) bool {
	var ok bool
	c.read(func(m *catalog.InMemoryCatalog) error { ok = m.FunctionExists(p); return nil })
	return ok
}

// CreateFunction implements catalog.Catalog.
func (c *Catalog) CreateFunction(p catalog.ObjectPath, f *catalog.Function, ignoreIfExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.CreateFunction(p, f, ignoreIfExists) })
}

// AlterFunction implements catalog.Catalog.
func (c *Catalog) AlterFunction(p catalog.ObjectPath, f *catalog.Function, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.AlterFunction(p, f, ignoreIfNotExists) })
}

// DropFunction implements catalog.Catalog.
func (c *Catalog) DropFunction(p catalog.ObjectPath, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.DropFunction(p, ignoreIfNotExists) })
}

// ListPartitions implements catalog.Catalog.
func (c *Catalog) ListPartitions(p catalog.ObjectPath, filter catalog.PartitionSpec) ([]catalog.PartitionSpec, error) {
	var out []catalog.PartitionSpec
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.ListPartitions(p, filter)
		return err
	})
	return out, err
}

// GetPartition implements catalog.Catalog.
func (c *Catalog) GetPartition(p catalog.ObjectPath, spec catalog.PartitionSpec) (*catalog.Partition, error) {
	var out *catalog.Partition
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.GetPartition(p, spec)
		return err
	})
	return out, err
}

// PartitionExists implements catalog.Catalog.
func (c *Catalog) PartitionExists(p catalog.ObjectPath, spec catalog.PartitionSpec) bool {
	var ok bool
	c.read(func(m *catalog.InMemoryCatalog) error { ok = m.PartitionExists(p, spec); return nil })
	return ok
}

// CreatePartition implements catalog.Catalog.
func (c *Catalog) CreatePartition(p catalog.ObjectPath, spec catalog.PartitionSpec, part *catalog.Partition, ignoreIfExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.CreatePartition(p, spec, part, ignoreIfExists) })
}

// DropPartition implements catalog.Catalog.
func (c *Catalog) DropPartition(p catalog.ObjectPath, spec catalog.PartitionSpec, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.DropPartition(p, spec, ignoreIfNotExists) })
}

// AlterPartition implements catalog.Catalog.
func (c *Catalog) AlterPartition(p catalog.ObjectPath, spec catalog.PartitionSpec, part *catalog.Partition, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.AlterPartition(p, spec, part, ignoreIfNotExists) })
}

// GetTableStatistics implements catalog.Catalog.
func (c *Catalog) GetTableStatistics(p catalog.ObjectPath) (catalog.TableStatistics, error) {
	var out catalog.TableStatistics
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.GetTableStatistics(p)
		return err
	})
	return out, err
}

// GetTableColumnStatistics implements catalog.Catalog.
func (c *Catalog) GetTableColumnStatistics(p catalog.ObjectPath) (catalog.ColumnStatistics, error) {
	var out catalog.ColumnStatistics
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.GetTableColumnStatistics(p)
		return err
	})
	return out, err
}

// GetPartitionStatistics implements catalog.Catalog.
func (c *Catalog) GetPartitionStatistics(p catalog.ObjectPath, spec catalog.PartitionSpec) (catalog.TableStatistics, error) {
	var out catalog.TableStatistics
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.GetPartitionStatistics(p, spec)
		return err
	})
	return out, err
}

// GetPartitionColumnStatistics implements catalog.Catalog.
func (c *Catalog) GetPartitionColumnStatistics(p catalog.ObjectPath, spec catalog.PartitionSpec) (catalog.ColumnStatistics, error) {
	var out catalog.ColumnStatistics
	err := c.read(func(m *catalog.InMemoryCatalog) error {
		var err error
		out, err = m.GetPartitionColumnStatistics(p, spec)
		return err
	})
	return out, err
}

// AlterTableStatistics implements catalog.Catalog.
func (c *Catalog) AlterTableStatistics(p catalog.ObjectPath, s catalog.TableStatistics, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.AlterTableStatistics(p, s, ignoreIfNotExists) })
}

// AlterTableColumnStatistics implements catalog.Catalog.
func (c *Catalog) AlterTableColumnStatistics(p catalog.ObjectPath, s catalog.ColumnStatistics, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error { return m.AlterTableColumnStatistics(p, s, ignoreIfNotExists) })
}

// AlterPartitionStatistics implements catalog.Catalog.
func (c *Catalog) AlterPartitionStatistics(p catalog.ObjectPath, spec catalog.PartitionSpec, s catalog.TableStatistics, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error {
		return m.AlterPartitionStatistics(p, spec, s, ignoreIfNotExists)
	})
}

// AlterPartitionColumnStatistics implements catalog.Catalog.
func (c *Catalog) AlterPartitionColumnStatistics(p catalog.ObjectPath, spec catalog.PartitionSpec, s catalog.ColumnStatistics, ignoreIfNotExists bool) error {
	return c.change(func(m *catalog.InMemoryCatalog) error {
		return m.AlterPartitionColumnStatistics(p, spec, s, ignoreIfNotExists)
	})
}
