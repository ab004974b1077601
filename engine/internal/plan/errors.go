package plan

import "github.com/riffle-sql/riffle/engine/sql"

// Error is a validation error with the position of the offending SQL, in
// Calcite's wording: sql.ValidationError (the same type, which
// table.ValidationError also names), so callers outside the engine match
// it without importing the planner.
type Error = sql.ValidationError
