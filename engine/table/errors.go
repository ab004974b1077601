package table

import "github.com/riffle-sql/riffle/engine/sql"

// ValidationError is the error of a statement or Table operation that
// parsed but does not validate, with the position of the offending SQL:
// Line and Column (1-based, in Unicode code points; 0 for none), where the
// span ends (EndLine, EndColumn; 0 for a point) and Msg, the bare message in
// Calcite's wording; Error() prefixes the position ("From line 1, column 8
// to line 1, column 11: Column 'pric' not found in any table"). Find it
// with errors.As(err, &ve) for a ve of type *table.ValidationError. Syntax
// errors are *sql.Error. It is sql.ValidationError (the same type).
type ValidationError = sql.ValidationError
