package jdbc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/types"
)

// Catalog is Flink's JdbcCatalog (PostgresCatalog and MySqlCatalog): the
// databases, tables and columns of a PostgreSQL or MySQL/MariaDB server,
// read from its system catalogs and offered as catalog tables of the jdbc
// connector, so that a query reads them with no DDL. It is read-only, as
// Flink's: every create, alter, drop and rename fails with a
// *ReadOnlyError.
//
// Names, as Flink's: a catalog database is a server database; a
// PostgreSQL table is named '<schema>.<table>' (a name without a dot is in
// schema public), a MySQL table by its own name. System databases and
// schemas are hidden (PostgreSQL: template0, template1; schemas
// pg_catalog, information_schema, pg_toast and the temporary ones; MySQL:
// information_schema, mysql, performance_schema, sys).
//
// Column types are mapped as Flink's PostgresTypeMapper and
// MySqlTypeMapper map them (see PostgresColumnType and MySQLColumnType); a
// column whose type has no mapping makes GetTable fail naming the column
// and its type. The primary key is the table's, with its constraint name.
//
// Every read opens (or reuses) a connection to the database concerned and
// is bounded by Timeout. A Catalog is safe for concurrent use.
type Catalog struct {
	name      string
	defaultDB string
	baseURL   string // as given, for messages
	username  string
	password  string
	dialect   catalogDialect

	// Timeout bounds each read of the server (connect and query); 0 means
	// 30 s.
	Timeout time.Duration

	mu    sync.Mutex
	pools map[string]*sql.DB // by database
}

// Catalog options (Flink's JdbcCatalogFactoryOptions).
const (
	CatalogOptionBaseURL         = "base-url"
	CatalogOptionDefaultDatabase = "default-database"
	CatalogOptionUsername        = "username"
	CatalogOptionPassword        = "password"
	CatalogOptionCompatibleMode  = "compatible-mode"
)

// catalogDialect is what differs between PostgreSQL and MySQL.
type catalogDialect interface {
	// product is "PostgreSQL" or "MySQL" (messages, the workbench).
	product() string
	// open returns a pool on one database of the server.
	open(addr catalogAddr, user, password, database string, timeout time.Duration) (*sql.DB, error)
	builtinDatabases() map[string]bool
	listDatabases(ctx context.Context, db *sql.DB) ([]string, error)
	listTables(ctx context.Context, db *sql.DB, database string) ([]string, error)
	// splitTable turns a catalog table name into the server's schema and
	// table (an error for a name the dialect cannot parse).
	splitTable(database, object string) (schema, table string, err error)
	// columns reads a table's columns (in order) and primary key; ok is
	// false when the table does not exist.
	columns(ctx context.Context, db *sql.DB, schema, table string) (cols []serverColumn, pk *types.UniqueConstraint, ok bool, err error)
	// mapType maps one column to a Flink type.
	mapType(c serverColumn) (*types.DataType, error)
	// tableName is the jdbc connector's 'table-name' of a table.
	tableName(schema, table string) string
}

// serverColumn is a column as the server's catalog describes it.
type serverColumn struct {
	Name     string
	Type     string // PostgreSQL: pg_type.typname (int4, _varchar); MySQL: COLUMN_TYPE (int(10) unsigned)
	DataType string // MySQL: DATA_TYPE (int, varchar)
	// TypeMod is PostgreSQL's atttypmod (-1 for none).
	TypeMod int
	// Precision, Scale: MySQL's NUMERIC_PRECISION / NUMERIC_SCALE;
	// DatetimePrecision its DATETIME_PRECISION; CharLength its length in
	// characters (CHARACTER_OCTET_LENGTH / the character set's MAXLEN).
	Precision, Scale, DatetimePrecision, CharLength int64
	NotNull                                         bool
}

// catalogAddr is a parsed base-url: jdbc:<scheme>://host[:port][/][?params].
type catalogAddr struct {
	scheme string // postgresql, mysql, mariadb
	host   string
	port   int
	params url.Values
	raw    string // the base-url with a trailing '/' before any parameters
}

// parseCatalogBaseURL parses a base-url. The URL names no database (the
// catalog adds it, as Flink's AbstractJdbcCatalog does); parameters after
// '?' are kept and passed to the driver.
func parseCatalogBaseURL(s string) (catalogAddr, error) {
	s = strings.TrimSpace(s)
	rest, ok := strings.CutPrefix(s, "jdbc:")
	if !ok {
		return catalogAddr{}, fmt.Errorf("Invalid 'base-url' '%s': a JDBC URL starts with 'jdbc:postgresql://', 'jdbc:mysql://' or 'jdbc:mariadb://'", RedactURL(s))
	}
	scheme, hostPart, ok := strings.Cut(rest, "://")
	if !ok {
		return catalogAddr{}, fmt.Errorf("Invalid 'base-url' '%s': expected jdbc:<database>://host:port", RedactURL(s))
	}
	a := catalogAddr{scheme: strings.ToLower(scheme)}
	switch a.scheme {
	case "postgresql", "mysql", "mariadb":
	default:
		return catalogAddr{}, fmt.Errorf("Could not find any jdbc factory that can handle url '%s': Riffle's JDBC catalog reads PostgreSQL (jdbc:postgresql://), MySQL (jdbc:mysql://) and MariaDB (jdbc:mariadb://)", RedactURL(s))
	}
	hostPart, query, _ := strings.Cut(hostPart, "?")
	hostPart, path, _ := strings.Cut(hostPart, "/")
	if strings.Trim(path, "/") != "" {
		return catalogAddr{}, fmt.Errorf("Invalid 'base-url' '%s': it must not name a database ('%s'); the catalog adds 'default-database' or the database read", RedactURL(s), strings.Trim(path, "/"))
	}
	if hostPart == "" {
		return catalogAddr{}, fmt.Errorf("Invalid 'base-url' '%s': no host", RedactURL(s))
	}
	if strings.Contains(hostPart, ",") {
		return catalogAddr{}, fmt.Errorf("Invalid 'base-url' '%s': several hosts are not supported", RedactURL(s))
	}
	host, port := hostPart, 0
	if h, p, err := net.SplitHostPort(hostPart); err == nil {
		host = h
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return catalogAddr{}, fmt.Errorf("Invalid 'base-url' '%s': port '%s' is not a number from 1 to 65535", RedactURL(s), p)
		}
		port = n
	} else if strings.Contains(strings.Trim(hostPart, "[]"), ":") && !strings.HasPrefix(hostPart, "[") {
		return catalogAddr{}, fmt.Errorf("Invalid 'base-url' '%s': %v", RedactURL(s), err)
	}
	if port == 0 {
		port = 5432
		if a.scheme != "postgresql" {
			port = 3306
		}
	}
	a.host, a.port = strings.Trim(host, "[]"), port
	params, err := url.ParseQuery(query)
	if err != nil {
		return catalogAddr{}, fmt.Errorf("Invalid 'base-url' '%s': parameters: %v", RedactURL(s), err)
	}
	a.params = params
	base := strings.TrimSuffix(strings.SplitN(s, "?", 2)[0], "/") + "/"
	if query != "" {
		base += "?" + query
	}
	a.raw = base
	return a, nil
}

// databaseURL is the JDBC URL of one database: the base-url with the
// database inserted before any parameters (Flink's getDatabaseUrl).
func (a catalogAddr) databaseURL(db string) string {
	base, query, ok := strings.Cut(a.raw, "?")
	if !ok {
		return base + db
	}
	return base + db + "?" + query
}

func (a catalogAddr) hostPort() string {
	return net.JoinHostPort(a.host, strconv.Itoa(a.port))
}

// NewCatalog returns a JDBC catalog called name on the server of baseURL
// (jdbc:postgresql://host:port, jdbc:mysql://host:port or
// jdbc:mariadb://host:port, without a database, optionally with driver
// parameters after '?'), whose default database is defaultDB. It does not
// connect: Open does. Errors: an empty name, default database, username
// or base-url, or a base-url that cannot be parsed.
func NewCatalog(name, defaultDB, username, password, baseURL string) (*Catalog, error) {
	if strings.TrimSpace(name) == "" {
		return nil, errors.New("JDBC catalog: the catalog name is empty")
	}
	if strings.TrimSpace(defaultDB) == "" {
		return nil, fmt.Errorf("JDBC catalog %s: '%s' must not be empty", name, CatalogOptionDefaultDatabase)
	}
	if username == "" {
		return nil, fmt.Errorf("JDBC catalog %s: '%s' must not be empty", name, CatalogOptionUsername)
	}
	a, err := parseCatalogBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	c := &Catalog{name: name, defaultDB: defaultDB, baseURL: a.raw, username: username, password: password, pools: map[string]*sql.DB{}}
	if a.scheme == "postgresql" {
		c.dialect = &pgCatalogDialect{addr: a}
	} else {
		c.dialect = &mysqlCatalogDialect{addr: a}
	}
	return c, nil
}

func (c *Catalog) addr() catalogAddr {
	switch d := c.dialect.(type) {
	case *pgCatalogDialect:
		return d.addr
	case *mysqlCatalogDialect:
		return d.addr
	}
	return catalogAddr{}
}

// Name is the catalog's name.
func (c *Catalog) Name() string { return c.name }

// BaseURL is the base-url, ending in '/' before any parameters.
func (c *Catalog) BaseURL() string { return c.baseURL }

// DatabaseURL is the JDBC URL of a database of the server, as the tables'
// 'url' option gives it.
func (c *Catalog) DatabaseURL(db string) string { return c.addr().databaseURL(db) }

// Product is the server's kind: "PostgreSQL" or "MySQL" (MariaDB too).
func (c *Catalog) Product() string { return c.dialect.product() }

// CatalogKind tells the workbench's catalog tree what the catalog is:
// "jdbc".
func (c *Catalog) CatalogKind() string { return "jdbc" }

// CatalogSummary is a short description for the catalog tree: the server
// kind and address ("PostgreSQL 127.0.0.1:5432").
func (c *Catalog) CatalogSummary() string {
	p := c.dialect.product()
	if c.addr().scheme == "mariadb" {
		p = "MariaDB"
	}
	return p + " " + c.addr().hostPort()
}

// IsRemote reports that reading the catalog goes over the network (the
// catalog tree reads it off the UI goroutine).
func (c *Catalog) IsRemote() bool { return true }

func (c *Catalog) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return 30 * time.Second
}

func (c *Catalog) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), c.timeout())
}

// pool returns the connection pool of a database, opening it once.
func (c *Catalog) pool(database string) (*sql.DB, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pools == nil {
		return nil, fmt.Errorf("JDBC catalog %s is closed", c.name)
	}
	if db, ok := c.pools[database]; ok {
		return db, nil
	}
	db, err := c.dialect.open(c.addr(), c.username, c.password, database, c.timeout())
	if err != nil {
		return nil, c.connectError(database, err)
	}
	db.SetMaxOpenConns(2)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(time.Minute)
	c.pools[database] = db
	return db, nil
}

// dropPool forgets a database's pool after a connection failure, so that
// the next read connects again.
func (c *Catalog) dropPool(database string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if db, ok := c.pools[database]; ok {
		_ = db.Close()
		delete(c.pools, database)
	}
}

// Open connects to the default database, failing early as Flink's
// AbstractJdbcCatalog.open does ("Failed connecting to <url> via JDBC.")
// with the reason: the server cannot be reached, the user or password is
// wrong, or the default database does not exist.
func (c *Catalog) Open() error {
	c.mu.Lock()
	if c.pools == nil {
		c.pools = map[string]*sql.DB{}
	}
	c.mu.Unlock()
	db, err := c.pool(c.defaultDB)
	if err != nil {
		return err
	}
	ctx, cancel := c.ctx()
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		c.dropPool(c.defaultDB)
		return c.connectError(c.defaultDB, err)
	}
	return nil
}

// Close closes the catalog's connections.
func (c *Catalog) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for _, db := range c.pools {
		if err := db.Close(); err != nil && first == nil {
			first = err
		}
	}
	c.pools = nil
	return first
}

// connectError explains a failure to connect to a database of the server.
func (c *Catalog) connectError(database string, err error) error {
	return &ConnectError{URL: c.addr().databaseURL(database), Database: database, User: c.username, Addr: c.addr().hostPort(), Product: c.CatalogSummary(), Err: err}
}

// ConnectError is a failure to connect to the server of a JDBC catalog:
// "Failed connecting to <url> via JDBC: <reason>", the reason in plain
// words where the server's answer is known (cannot reach the address,
// authentication failed for the user, the database does not exist).
type ConnectError struct {
	URL, Database, User, Addr, Product string
	Err                                error
}

func (e *ConnectError) Error() string {
	return fmt.Sprintf("Failed connecting to %s via JDBC: %s", e.URL, e.Reason())
}

func (e *ConnectError) Unwrap() error { return e.Err }

// Reason is the cause in plain words.
func (e *ConnectError) Reason() string {
	msg := e.Err.Error()
	low := strings.ToLower(msg)
	var ne net.Error
	var oe *net.OpError
	switch {
	case strings.Contains(low, "sqlstate 28p01"), strings.Contains(low, "password authentication failed"),
		strings.Contains(low, "error 1045"), strings.Contains(low, "access denied for user"):
		return fmt.Sprintf("authentication failed for user '%s' (wrong username or password) (%s)", e.User, msg)
	case strings.Contains(low, "sqlstate 3d000"), strings.Contains(low, "error 1049"), strings.Contains(low, "unknown database"):
		return fmt.Sprintf("database '%s' does not exist on %s (%s)", e.Database, e.Product, msg)
	case strings.Contains(low, "connection refused"):
		return fmt.Sprintf("cannot reach %s: connection refused (is the server running?)", e.Addr)
	case errors.As(e.Err, &oe), strings.Contains(low, "no such host"):
		return fmt.Sprintf("cannot reach %s (%s)", e.Addr, msg)
	case errors.As(e.Err, &ne) && ne.Timeout(), errors.Is(e.Err, context.DeadlineExceeded), strings.Contains(low, "timeout"):
		return fmt.Sprintf("no answer from %s in time (%s)", e.Addr, msg)
	}
	return msg
}

// isConnectFailure reports whether err happened while connecting (as
// opposed to a query's own failure).
func isConnectFailure(err error) bool {
	var ce *ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var oe *net.OpError
	low := strings.ToLower(err.Error())
	return errors.As(err, &oe) || strings.Contains(low, "failed to connect") || strings.Contains(low, "connection refused") ||
		strings.Contains(low, "sqlstate 28p01") || strings.Contains(low, "sqlstate 3d000") || strings.Contains(low, "error 1045") || strings.Contains(low, "error 1049")
}

// query runs fn on a database's pool, turning a connection failure into a
// ConnectError and dropping the pool.
func (c *Catalog) query(database string, fn func(ctx context.Context, db *sql.DB) error) error {
	db, err := c.pool(database)
	if err != nil {
		return err
	}
	ctx, cancel := c.ctx()
	defer cancel()
	if err := fn(ctx, db); err != nil {
		if isConnectFailure(err) {
			c.dropPool(database)
			return c.connectError(database, err)
		}
		return err
	}
	return nil
}

// DefaultDatabase is the 'default-database'.
func (c *Catalog) DefaultDatabase() string { return c.defaultDB }

// ListDatabases lists the server's databases but the system ones, sorted.
func (c *Catalog) ListDatabases() ([]string, error) {
	var out []string
	err := c.query(c.defaultDB, func(ctx context.Context, db *sql.DB) error {
		names, err := c.dialect.listDatabases(ctx, db)
		if err != nil {
			return err
		}
		hide := c.dialect.builtinDatabases()
		for _, n := range names {
			if !hide[n] {
				out = append(out, n)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("Failed listing the databases of catalog %s: %w", c.name, err)
	}
	sort.Strings(out)
	return out, nil
}

// GetDatabase returns an empty database (no properties, no comment) when
// it exists.
func (c *Catalog) GetDatabase(name string) (*catalog.Database, error) {
	if !c.DatabaseExists(name) {
		return nil, &catalog.DatabaseNotExistError{Catalog: c.name, Database: name}
	}
	return &catalog.Database{Properties: map[string]string{}}, nil
}

// DatabaseExists reports whether the server has the database (false also
// when the server cannot be read).
func (c *Catalog) DatabaseExists(name string) bool {
	if strings.TrimSpace(name) == "" {
		return false
	}
	dbs, err := c.ListDatabases()
	if err != nil {
		return false
	}
	i := sort.SearchStrings(dbs, name)
	return i < len(dbs) && dbs[i] == name
}

// ListTables lists a database's tables, sorted: '<schema>.<table>' for
// PostgreSQL (base tables of the schemas that are not the system's), the
// table names for MySQL (tables and views, as Flink's MySqlCatalog).
func (c *Catalog) ListTables(database string) ([]string, error) {
	if strings.TrimSpace(database) == "" {
		return nil, errors.New("Database name must not be blank.")
	}
	dbs, err := c.ListDatabases()
	if err != nil {
		return nil, err
	}
	if i := sort.SearchStrings(dbs, database); i == len(dbs) || dbs[i] != database {
		return nil, &catalog.DatabaseNotExistError{Catalog: c.name, Database: database}
	}
	var out []string
	err = c.query(database, func(ctx context.Context, db *sql.DB) error {
		var err error
		out, err = c.dialect.listTables(ctx, db, database)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("Failed to list tables for database %s: %w", database, err)
	}
	sort.Strings(out)
	return out, nil
}

// ListViews lists nothing (Flink's JdbcCatalog lists no views).
func (c *Catalog) ListViews(database string) ([]string, error) {
	if !c.DatabaseExists(database) {
		return nil, &catalog.DatabaseNotExistError{Catalog: c.name, Database: database}
	}
	return []string{}, nil
}

// GetTable reads a table's columns and primary key and returns it as a
// table of the jdbc connector ('connector' = 'jdbc', 'url', 'table-name',
// 'username', 'password'). Errors: *catalog.TableNotExistError; a column
// type with no Flink mapping (naming the table, the column and the type);
// the server's.
func (c *Catalog) GetTable(p catalog.ObjectPath) (catalog.BaseTable, error) {
	schemaName, tableName, err := c.dialect.splitTable(p.Database, p.Object)
	if err != nil {
		return nil, err
	}
	if !c.DatabaseExists(p.Database) {
		return nil, &catalog.TableNotExistError{Catalog: c.name, Path: p}
	}
	var cols []serverColumn
	var pk *types.UniqueConstraint
	var found bool
	err = c.query(p.Database, func(ctx context.Context, db *sql.DB) error {
		var err error
		cols, pk, found, err = c.dialect.columns(ctx, db, schemaName, tableName)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("Failed getting table %s: %w", p.FullName(), err)
	}
	if !found {
		return nil, &catalog.TableNotExistError{Catalog: c.name, Path: p}
	}
	schema := &types.Schema{PrimaryKey: pk}
	for _, col := range cols {
		t, err := c.dialect.mapType(col)
		if err != nil {
			var u *UnsupportedColumnTypeError
			if errors.As(err, &u) {
				named := *u
				named.Column, named.Table, named.Catalog = col.Name, p.FullName(), c.name
				return nil, &named
			}
			return nil, fmt.Errorf("Failed getting table %s of catalog %s: column '%s': %w", p.FullName(), c.name, col.Name, err)
		}
		if col.NotNull {
			t = t.NotNull()
		}
		schema.Columns = append(schema.Columns, types.Column{Name: col.Name, Type: t})
	}
	opts := map[string]string{
		"connector":  "jdbc",
		"url":        c.addr().databaseURL(p.Database),
		"table-name": c.dialect.tableName(schemaName, tableName),
		"username":   c.username,
		"password":   c.password,
	}
	return &catalog.Table{TableSchema: schema, TableOptions: opts}, nil
}

// TableExists reports whether GetTable would find the table.
func (c *Catalog) TableExists(p catalog.ObjectPath) bool {
	schemaName, tableName, err := c.dialect.splitTable(p.Database, p.Object)
	if err != nil || !c.DatabaseExists(p.Database) {
		return false
	}
	var found bool
	err = c.query(p.Database, func(ctx context.Context, db *sql.DB) error {
		var err error
		_, _, found, err = c.dialect.columns(ctx, db, schemaName, tableName)
		return err
	})
	return err == nil && found
}

// ReadOnlyError is what every write to a JDBC catalog returns (Flink's
// JdbcCatalog throws UnsupportedOperationException).
type ReadOnlyError struct {
	Catalog   string
	Operation string // "create table", "drop database", …
	Object    string // the object concerned, "" for none
}

func (e *ReadOnlyError) Error() string {
	obj := ""
	if e.Object != "" {
		obj = " " + e.Object
	}
	return fmt.Sprintf("Catalog %s is a read-only JDBC catalog: cannot %s%s (UnsupportedOperationException in Flink's JdbcCatalog); change the database on its server instead", e.Catalog, e.Operation, obj)
}

func (c *Catalog) readOnly(op, obj string) error {
	return &ReadOnlyError{Catalog: c.name, Operation: op, Object: obj}
}

// CreateDatabase fails: the catalog is read-only.
func (c *Catalog) CreateDatabase(name string, _ *catalog.Database, _ bool) error {
	return c.readOnly("create database", name)
}

// DropDatabase fails: the catalog is read-only.
func (c *Catalog) DropDatabase(name string, _, _ bool) error {
	return c.readOnly("drop database", name)
}

// AlterDatabase fails: the catalog is read-only.
func (c *Catalog) AlterDatabase(name string, _ *catalog.Database, _ bool) error {
	return c.readOnly("alter database", name)
}

// CreateTable fails: the catalog is read-only.
func (c *Catalog) CreateTable(p catalog.ObjectPath, t catalog.BaseTable, _ bool) error {
	if t != nil && t.Kind() == catalog.KindView {
		return c.readOnly("create view", p.FullName())
	}
	return c.readOnly("create table", p.FullName())
}

// DropTable fails: the catalog is read-only.
func (c *Catalog) DropTable(p catalog.ObjectPath, _ bool) error {
	return c.readOnly("drop table", p.FullName())
}

// AlterTable fails: the catalog is read-only.
func (c *Catalog) AlterTable(p catalog.ObjectPath, _ catalog.BaseTable, _ bool) error {
	return c.readOnly("alter table", p.FullName())
}

// RenameTable fails: the catalog is read-only.
func (c *Catalog) RenameTable(p catalog.ObjectPath, _ string, _ bool) error {
	return c.readOnly("rename table", p.FullName())
}

// ListFunctions lists nothing.
func (c *Catalog) ListFunctions(string) ([]string, error) { return []string{}, nil }

// GetFunction finds nothing.
func (c *Catalog) GetFunction(p catalog.ObjectPath) (*catalog.Function, error) {
	return nil, &catalog.FunctionNotExistError{Catalog: c.name, Path: p}
}

// FunctionExists is false.
func (c *Catalog) FunctionExists(catalog.ObjectPath) bool { return false }

// CreateFunction fails: the catalog is read-only.
func (c *Catalog) CreateFunction(p catalog.ObjectPath, _ *catalog.Function, _ bool) error {
	return c.readOnly("create function", p.FullName())
}

// AlterFunction fails: the catalog is read-only.
func (c *Catalog) AlterFunction(p catalog.ObjectPath, _ *catalog.Function, _ bool) error {
	return c.readOnly("alter function", p.FullName())
}

// DropFunction fails: the catalog is read-only.
func (c *Catalog) DropFunction(p catalog.ObjectPath, _ bool) error {
	return c.readOnly("drop function", p.FullName())
}

// ListPartitions lists nothing (tables are not partitioned).
func (c *Catalog) ListPartitions(catalog.ObjectPath, catalog.PartitionSpec) ([]catalog.PartitionSpec, error) {
	return []catalog.PartitionSpec{}, nil
}

// GetPartition finds nothing.
func (c *Catalog) GetPartition(p catalog.ObjectPath, spec catalog.PartitionSpec) (*catalog.Partition, error) {
	return nil, &catalog.PartitionNotExistError{Catalog: c.name, Path: p, Spec: spec}
}

// PartitionExists is false.
func (c *Catalog) PartitionExists(catalog.ObjectPath, catalog.PartitionSpec) bool { return false }

// CreatePartition fails: the catalog is read-only.
func (c *Catalog) CreatePartition(p catalog.ObjectPath, _ catalog.PartitionSpec, _ *catalog.Partition, _ bool) error {
	return c.readOnly("create partition of", p.FullName())
}

// DropPartition fails: the catalog is read-only.
func (c *Catalog) DropPartition(p catalog.ObjectPath, _ catalog.PartitionSpec, _ bool) error {
	return c.readOnly("drop partition of", p.FullName())
}

// AlterPartition fails: the catalog is read-only.
func (c *Catalog) AlterPartition(p catalog.ObjectPath, _ catalog.PartitionSpec, _ *catalog.Partition, _ bool) error {
	return c.readOnly("alter partition of", p.FullName())
}

// GetTableStatistics is unknown.
func (c *Catalog) GetTableStatistics(catalog.ObjectPath) (catalog.TableStatistics, error) {
	return catalog.UnknownTableStatistics, nil
}

// GetTableColumnStatistics is unknown.
func (c *Catalog) GetTableColumnStatistics(catalog.ObjectPath) (catalog.ColumnStatistics, error) {
	return catalog.ColumnStatistics{}, nil
}

// GetPartitionStatistics is unknown.
func (c *Catalog) GetPartitionStatistics(catalog.ObjectPath, catalog.PartitionSpec) (catalog.TableStatistics, error) {
	return catalog.UnknownTableStatistics, nil
}

// GetPartitionColumnStatistics is unknown.
func (c *Catalog) GetPartitionColumnStatistics(catalog.ObjectPath, catalog.PartitionSpec) (catalog.ColumnStatistics, error) {
	return catalog.ColumnStatistics{}, nil
}

// AlterTableStatistics fails: the catalog is read-only.
func (c *Catalog) AlterTableStatistics(p catalog.ObjectPath, _ catalog.TableStatistics, _ bool) error {
	return c.readOnly("alter statistics of", p.FullName())
}

// AlterTableColumnStatistics fails: the catalog is read-only.
func (c *Catalog) AlterTableColumnStatistics(p catalog.ObjectPath, _ catalog.ColumnStatistics, _ bool) error {
	return c.readOnly("alter column statistics of", p.FullName())
}

// AlterPartitionStatistics fails: the catalog is read-only.
func (c *Catalog) AlterPartitionStatistics(p catalog.ObjectPath, _ catalog.PartitionSpec, _ catalog.TableStatistics, _ bool) error {
	return c.readOnly("alter partition statistics of", p.FullName())
}

// AlterPartitionColumnStatistics fails: the catalog is read-only.
func (c *Catalog) AlterPartitionColumnStatistics(p catalog.ObjectPath, _ catalog.PartitionSpec, _ catalog.ColumnStatistics, _ bool) error {
	return c.readOnly("alter partition column statistics of", p.FullName())
}

var _ catalog.Catalog = (*Catalog)(nil)
