package catalog

import (
	"errors"
	"fmt"
)

// Errors, with Flink's messages.
type (
	// DatabaseNotExistError: "Database db does not exist in Catalog cat."
	DatabaseNotExistError struct{ Catalog, Database string }
	// DatabaseAlreadyExistError: "Database db already exists in Catalog cat."
	DatabaseAlreadyExistError struct{ Catalog, Database string }
	// DatabaseNotEmptyError: "Database db in catalog cat is not empty."
	DatabaseNotEmptyError struct{ Catalog, Database string }
	// TableNotExistError: "Table (or view) db.t does not exist in Catalog cat."
	TableNotExistError struct {
		Catalog string
		Path    ObjectPath
	}
	// TableAlreadyExistError: "Table (or view) db.t already exists in Catalog cat."
	TableAlreadyExistError struct {
		Catalog string
		Path    ObjectPath
	}
	// FunctionNotExistError: "Function db.f does not exist in Catalog cat."
	FunctionNotExistError struct {
		Catalog string
		Path    ObjectPath
	}
	// FunctionAlreadyExistError: "Function db.f already exists in Catalog cat."
	FunctionAlreadyExistError struct {
		Catalog string
		Path    ObjectPath
	}
	// PartitionNotExistError names the missing partition.
	PartitionNotExistError struct {
		Catalog string
		Path    ObjectPath
		Spec    PartitionSpec
	}
	// PartitionAlreadyExistsError names the existing partition.
	PartitionAlreadyExistsError struct {
		Catalog string
		Path    ObjectPath
		Spec    PartitionSpec
	}
	// TableNotPartitionedError: the table has no partition keys.
	TableNotPartitionedError struct {
		Catalog string
		Path    ObjectPath
	}
	// PartitionSpecInvalidError: the spec does not name exactly the
	// table's partition keys.
	PartitionSpecInvalidError struct {
		Catalog       string
		PartitionKeys []string
		Path          ObjectPath
		Spec          PartitionSpec
	}
)

func (e *PartitionSpecInvalidError) Error() string {
	return fmt.Sprintf("PartitionSpec %s does not match partition keys %v of table %s in catalog %s.", e.Spec, e.PartitionKeys, e.Path, e.Catalog)
}

func (e *DatabaseNotExistError) Error() string {
	return fmt.Sprintf("Database %s does not exist in Catalog %s.", e.Database, e.Catalog)
}
func (e *DatabaseAlreadyExistError) Error() string {
	return fmt.Sprintf("Database %s already exists in Catalog %s.", e.Database, e.Catalog)
}
func (e *DatabaseNotEmptyError) Error() string {
	return fmt.Sprintf("Database %s in catalog %s is not empty.", e.Database, e.Catalog)
}
func (e *TableNotExistError) Error() string {
	return fmt.Sprintf("Table (or view) %s does not exist in Catalog %s.", e.Path, e.Catalog)
}
func (e *TableAlreadyExistError) Error() string {
	return fmt.Sprintf("Table (or view) %s already exists in Catalog %s.", e.Path, e.Catalog)
}
func (e *FunctionNotExistError) Error() string {
	return fmt.Sprintf("Function %s does not exist in Catalog %s.", e.Path, e.Catalog)
}
func (e *FunctionAlreadyExistError) Error() string {
	return fmt.Sprintf("Function %s already exists in Catalog %s.", e.Path, e.Catalog)
}
func (e *PartitionNotExistError) Error() string {
	return fmt.Sprintf("Partition %s of table %s in catalog %s does not exist.", e.Spec, e.Path, e.Catalog)
}
func (e *PartitionAlreadyExistsError) Error() string {
	return fmt.Sprintf("Partition %s of table %s in catalog %s already exists.", e.Spec, e.Path, e.Catalog)
}
func (e *TableNotPartitionedError) Error() string {
	return fmt.Sprintf("Table %s in catalog %s is not partitioned.", e.Path, e.Catalog)
}

// IsNotExist reports whether err says a database, table, function or
// partition does not exist.
func IsNotExist(err error) bool {
	var a *DatabaseNotExistError
	var b *TableNotExistError
	var c *FunctionNotExistError
	var d *PartitionNotExistError
	return errors.As(err, &a) || errors.As(err, &b) || errors.As(err, &c) || errors.As(err, &d)
}
