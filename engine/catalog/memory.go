package catalog

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

type memTable struct {
	table      BaseTable
	partitions map[string]*memPartition
	stats      *TableStatistics
	colStats   *ColumnStatistics
}

type memPartition struct {
	spec     PartitionSpec
	part     *Partition
	stats    *TableStatistics
	colStats *ColumnStatistics
}

type memDatabase struct {
	db        *Database
	tables    map[string]*memTable
	functions map[string]*Function
}

// InMemoryCatalog keeps everything in memory (Flink's
// GenericInMemoryCatalog). It is safe for concurrent use. Object names
// are case-sensitive, as in Flink.
type InMemoryCatalog struct {
	name      string
	defaultDB string
	mu        sync.RWMutex
	dbs       map[string]*memDatabase
}

// NewInMemoryCatalog creates a catalog with one empty default database.
func NewInMemoryCatalog(name, defaultDatabase string) *InMemoryCatalog {
	c := &InMemoryCatalog{name: name, defaultDB: defaultDatabase, dbs: map[string]*memDatabase{}}
	c.dbs[defaultDatabase] = newMemDB(&Database{})
	return c
}

func newMemDB(db *Database) *memDatabase {
	return &memDatabase{db: db, tables: map[string]*memTable{}, functions: map[string]*Function{}}
}

// Name returns the catalog's name.
func (c *InMemoryCatalog) Name() string { return c.name }

// Open implements Catalog.
func (c *InMemoryCatalog) Open() error { return nil }

// Close implements Catalog.
func (c *InMemoryCatalog) Close() error { return nil }

// DefaultDatabase implements Catalog.
func (c *InMemoryCatalog) DefaultDatabase() string { return c.defaultDB }

// ListDatabases implements Catalog.
func (c *InMemoryCatalog) ListDatabases() ([]string, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return sortedKeys(c.dbs), nil
}

// GetDatabase implements Catalog.
func (c *InMemoryCatalog) GetDatabase(name string) (*Database, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.dbs[name]
	if !ok {
		return nil, &DatabaseNotExistError{c.name, name}
	}
	return d.db, nil
}

// DatabaseExists implements Catalog.
func (c *InMemoryCatalog) DatabaseExists(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.dbs[name]
	return ok
}

// CreateDatabase implements Catalog.
func (c *InMemoryCatalog) CreateDatabase(name string, db *Database, ignoreIfExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.dbs[name]; ok {
		if ignoreIfExists {
			return nil
		}
		return &DatabaseAlreadyExistError{c.name, name}
	}
	if db == nil {
		db = &Database{}
	}
	c.dbs[name] = newMemDB(db)
	return nil
}

// DropDatabase implements Catalog. A non-empty database needs cascade.
func (c *InMemoryCatalog) DropDatabase(name string, ignoreIfNotExists, cascade bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[name]
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return &DatabaseNotExistError{c.name, name}
	}
	if !cascade && (len(d.tables) > 0 || len(d.functions) > 0) {
		return &DatabaseNotEmptyError{c.name, name}
	}
	delete(c.dbs, name)
	return nil
}

// AlterDatabase implements Catalog.
func (c *InMemoryCatalog) AlterDatabase(name string, db *Database, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[name]
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return &DatabaseNotExistError{c.name, name}
	}
	d.db = db
	return nil
}

func (c *InMemoryCatalog) database(name string) (*memDatabase, error) {
	d, ok := c.dbs[name]
	if !ok {
		return nil, &DatabaseNotExistError{c.name, name}
	}
	return d, nil
}

// ListTables implements Catalog.
func (c *InMemoryCatalog) ListTables(db string) ([]string, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, err := c.database(db)
	if err != nil {
		return nil, err
	}
	return sortedKeys(d.tables), nil
}

// ListViews implements Catalog.
func (c *InMemoryCatalog) ListViews(db string) ([]string, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, err := c.database(db)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range sortedKeys(d.tables) {
		if d.tables[n].table.Kind() == KindView {
			out = append(out, n)
		}
	}
	return out, nil
}

func (c *InMemoryCatalog) table(p ObjectPath) (*memTable, error) {
	d, ok := c.dbs[p.Database]
	if !ok {
		return nil, &TableNotExistError{c.name, p}
	}
	t, ok := d.tables[p.Object]
	if !ok {
		return nil, &TableNotExistError{c.name, p}
	}
	return t, nil
}

// GetTable implements Catalog.
func (c *InMemoryCatalog) GetTable(p ObjectPath) (BaseTable, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, err := c.table(p)
	if err != nil {
		return nil, err
	}
	return t.table, nil
}

// TableExists implements Catalog.
func (c *InMemoryCatalog) TableExists(p ObjectPath) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, err := c.table(p)
	return err == nil
}

// CreateTable implements Catalog.
func (c *InMemoryCatalog) CreateTable(p ObjectPath, t BaseTable, ignoreIfExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, err := c.database(p.Database)
	if err != nil {
		return err
	}
	if _, ok := d.tables[p.Object]; ok {
		if ignoreIfExists {
			return nil
		}
		return &TableAlreadyExistError{c.name, p}
	}
	d.tables[p.Object] = &memTable{table: t, partitions: map[string]*memPartition{}}
	return nil
}

// DropTable implements Catalog.
func (c *InMemoryCatalog) DropTable(p ObjectPath, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.table(p); err != nil {
		if ignoreIfNotExists {
			return nil
		}
		return err
	}
	delete(c.dbs[p.Database].tables, p.Object)
	return nil
}

// AlterTable implements Catalog. The new table must be of the same kind.
func (c *InMemoryCatalog) AlterTable(p ObjectPath, t BaseTable, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, err := c.table(p)
	if err != nil {
		if ignoreIfNotExists {
			return nil
		}
		return err
	}
	if old.table.Kind() != t.Kind() {
		return fmt.Errorf("table types don't match: existing %s %s, new %s", strings.ToLower(old.table.Kind().String()), p, strings.ToLower(t.Kind().String()))
	}
	if ot, ok := old.table.(*Table); ok {
		if nt, ok := t.(*Table); ok && ot.IsPartitioned() != nt.IsPartitioned() {
			return fmt.Errorf("cannot alter a partitioned table to a non-partitioned table or vice versa: %s", p)
		}
	}
	old.table = t
	return nil
}

// RenameTable implements Catalog.
func (c *InMemoryCatalog) RenameTable(p ObjectPath, newName string, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.table(p)
	if err != nil {
		if ignoreIfNotExists {
			return nil
		}
		return err
	}
	d := c.dbs[p.Database]
	if _, ok := d.tables[newName]; ok {
		return &TableAlreadyExistError{c.name, ObjectPath{p.Database, newName}}
	}
	delete(d.tables, p.Object)
	d.tables[newName] = t
	return nil
}

// ListFunctions implements Catalog.
func (c *InMemoryCatalog) ListFunctions(db string) ([]string, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, err := c.database(db)
	if err != nil {
		return nil, err
	}
	return sortedKeys(d.functions), nil
}

// Function names are case-insensitive in Flink's catalogs (normalised to lower case).
func fnKey(name string) string { return strings.ToLower(name) }

// GetFunction implements Catalog.
func (c *InMemoryCatalog) GetFunction(p ObjectPath) (*Function, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.dbs[p.Database]
	if ok {
		if f, ok := d.functions[fnKey(p.Object)]; ok {
			return f, nil
		}
	}
	return nil, &FunctionNotExistError{c.name, p}
}

// FunctionExists implements Catalog.
func (c *InMemoryCatalog) FunctionExists(p ObjectPath) bool {
	_, err := c.GetFunction(p)
	return err == nil
}

// CreateFunction implements Catalog.
func (c *InMemoryCatalog) CreateFunction(p ObjectPath, f *Function, ignoreIfExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, err := c.database(p.Database)
	if err != nil {
		return err
	}
	if _, ok := d.functions[fnKey(p.Object)]; ok {
		if ignoreIfExists {
			return nil
		}
		return &FunctionAlreadyExistError{c.name, p}
	}
	d.functions[fnKey(p.Object)] = f
	return nil
}

// AlterFunction implements Catalog.
func (c *InMemoryCatalog) AlterFunction(p ObjectPath, f *Function, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[p.Database]
	if !ok || d.functions[fnKey(p.Object)] == nil {
		if ignoreIfNotExists {
			return nil
		}
		return &FunctionNotExistError{c.name, p}
	}
	d.functions[fnKey(p.Object)] = f
	return nil
}

// DropFunction implements Catalog.
func (c *InMemoryCatalog) DropFunction(p ObjectPath, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[p.Database]
	if !ok || d.functions[fnKey(p.Object)] == nil {
		if ignoreIfNotExists {
			return nil
		}
		return &FunctionNotExistError{c.name, p}
	}
	delete(d.functions, fnKey(p.Object))
	return nil
}

func (c *InMemoryCatalog) partitionedTable(p ObjectPath) (*memTable, error) {
	t, err := c.table(p)
	if err != nil {
		return nil, err
	}
	if tt, ok := t.table.(*Table); !ok || !tt.IsPartitioned() {
		return nil, &TableNotPartitionedError{c.name, p}
	}
	return t, nil
}

// ListPartitions implements Catalog; filter (may be nil) keeps partitions
// whose values match every given key.
func (c *InMemoryCatalog) ListPartitions(p ObjectPath, filter PartitionSpec) ([]PartitionSpec, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, err := c.partitionedTable(p)
	if err != nil {
		return nil, err
	}
	var out []PartitionSpec
	for _, k := range sortedKeys(t.partitions) {
		mp := t.partitions[k]
		ok := true
		for fk, fv := range filter {
			if mp.spec[fk] != fv {
				ok = false
			}
		}
		if ok {
			out = append(out, mp.spec)
		}
	}
	return out, nil
}

// GetPartition implements Catalog.
func (c *InMemoryCatalog) GetPartition(p ObjectPath, spec PartitionSpec) (*Partition, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, err := c.partitionedTable(p)
	if err != nil {
		return nil, err
	}
	mp, ok := t.partitions[spec.String()]
	if !ok {
		return nil, &PartitionNotExistError{c.name, p, spec}
	}
	return mp.part, nil
}

// PartitionExists implements Catalog.
func (c *InMemoryCatalog) PartitionExists(p ObjectPath, spec PartitionSpec) bool {
	_, err := c.GetPartition(p, spec)
	return err == nil
}

// CreatePartition implements Catalog.
func (c *InMemoryCatalog) CreatePartition(p ObjectPath, spec PartitionSpec, part *Partition, ignoreIfExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.partitionedTable(p)
	if err != nil {
		return err
	}
	keys := t.table.(*Table).PartitionKeys
	if len(spec) != len(keys) {
		return &PartitionSpecInvalidError{c.name, keys, p, spec}
	}
	for k := range spec {
		found := false
		for _, pk := range keys {
			if pk == k {
				found = true
			}
		}
		if !found {
			return &PartitionSpecInvalidError{c.name, keys, p, spec}
		}
	}
	if _, ok := t.partitions[spec.String()]; ok {
		if ignoreIfExists {
			return nil
		}
		return &PartitionAlreadyExistsError{c.name, p, spec}
	}
	t.partitions[spec.String()] = &memPartition{spec: spec, part: part}
	return nil
}

// DropPartition implements Catalog.
func (c *InMemoryCatalog) DropPartition(p ObjectPath, spec PartitionSpec, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.partitionedTable(p)
	if err != nil {
		return err
	}
	if _, ok := t.partitions[spec.String()]; !ok {
		if ignoreIfNotExists {
			return nil
		}
		return &PartitionNotExistError{c.name, p, spec}
	}
	delete(t.partitions, spec.String())
	return nil
}

// AlterPartition implements Catalog.
func (c *InMemoryCatalog) AlterPartition(p ObjectPath, spec PartitionSpec, part *Partition, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.partitionedTable(p)
	if err != nil {
		return err
	}
	mp, ok := t.partitions[spec.String()]
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return &PartitionNotExistError{c.name, p, spec}
	}
	mp.part = part
	return nil
}

// GetTableStatistics implements Catalog (UNKNOWN when never set).
func (c *InMemoryCatalog) GetTableStatistics(p ObjectPath) (TableStatistics, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, err := c.table(p)
	if err != nil {
		return TableStatistics{}, err
	}
	if t.stats == nil {
		return UnknownTableStatistics, nil
	}
	return *t.stats, nil
}

// GetTableColumnStatistics implements Catalog.
func (c *InMemoryCatalog) GetTableColumnStatistics(p ObjectPath) (ColumnStatistics, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, err := c.table(p)
	if err != nil {
		return ColumnStatistics{}, err
	}
	if t.colStats == nil {
		return ColumnStatistics{Columns: map[string]ColumnStats{}}, nil
	}
	return *t.colStats, nil
}

// AlterTableStatistics implements Catalog.
func (c *InMemoryCatalog) AlterTableStatistics(p ObjectPath, s TableStatistics, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.table(p)
	if err != nil {
		if ignoreIfNotExists {
			return nil
		}
		return err
	}
	t.stats = &s
	return nil
}

// AlterTableColumnStatistics implements Catalog.
func (c *InMemoryCatalog) AlterTableColumnStatistics(p ObjectPath, s ColumnStatistics, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.table(p)
	if err != nil {
		if ignoreIfNotExists {
			return nil
		}
		return err
	}
	t.colStats = &s
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (c *InMemoryCatalog) partition(p ObjectPath, spec PartitionSpec) (*memPartition, error) {
	t, err := c.partitionedTable(p)
	if err != nil {
		return nil, err
	}
	mp, ok := t.partitions[spec.String()]
	if !ok {
		return nil, &PartitionNotExistError{c.name, p, spec}
	}
	return mp, nil
}

// GetPartitionStatistics implements Catalog (UNKNOWN when never set).
func (c *InMemoryCatalog) GetPartitionStatistics(p ObjectPath, spec PartitionSpec) (TableStatistics, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	mp, err := c.partition(p, spec)
	if err != nil {
		return TableStatistics{}, err
	}
	if mp.stats == nil {
		return UnknownTableStatistics, nil
	}
	return mp.stats.Copy(), nil
}

// GetPartitionColumnStatistics implements Catalog.
func (c *InMemoryCatalog) GetPartitionColumnStatistics(p ObjectPath, spec PartitionSpec) (ColumnStatistics, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	mp, err := c.partition(p, spec)
	if err != nil {
		return ColumnStatistics{}, err
	}
	if mp.colStats == nil {
		return ColumnStatistics{Columns: map[string]ColumnStats{}}, nil
	}
	return mp.colStats.Copy(), nil
}

// AlterPartitionStatistics implements Catalog.
func (c *InMemoryCatalog) AlterPartitionStatistics(p ObjectPath, spec PartitionSpec, s TableStatistics, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	mp, err := c.partition(p, spec)
	if err != nil {
		if ignoreIfNotExists && IsNotExist(err) {
			return nil
		}
		return err
	}
	cp := s.Copy()
	mp.stats = &cp
	return nil
}

// AlterPartitionColumnStatistics implements Catalog.
func (c *InMemoryCatalog) AlterPartitionColumnStatistics(p ObjectPath, spec PartitionSpec, s ColumnStatistics, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	mp, err := c.partition(p, spec)
	if err != nil {
		if ignoreIfNotExists && IsNotExist(err) {
			return nil
		}
		return err
	}
	cp := s.Copy()
	mp.colStats = &cp
	return nil
}
