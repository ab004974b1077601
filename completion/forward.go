// Package completion forwards to engine/completion, where the one SQL
// completer now lives (the workbench's editor completion and the SQL
// Gateway's complete-statement endpoint). It is kept only until the
// workbench's call sites (ui/completion_popup.go, ui/authoring.go) import
// engine/completion and table.CompletionCatalog; then it goes.
package completion

import (
	ec "github.com/riffle-sql/riffle/engine/completion"
	"github.com/riffle-sql/riffle/engine/table"
)

// The types of engine/completion.
type (
	Catalog   = ec.Catalog
	Item      = ec.Item
	Kind      = ec.Kind
	Result    = ec.Result
	Object    = ec.Object
	Column    = ec.Column
	TableMeta = ec.TableMeta
	Function  = ec.Function
)

// Candidate kinds (engine/completion's).
const (
	KindKeyword     = ec.KindKeyword
	KindCatalog     = ec.KindCatalog
	KindDatabase    = ec.KindDatabase
	KindTable       = ec.KindTable
	KindView        = ec.KindView
	KindColumn      = ec.KindColumn
	KindFunction    = ec.KindFunction
	KindOptionKey   = ec.KindOptionKey
	KindOptionValue = ec.KindOptionValue
	KindType        = ec.KindType
)

// Complete is engine/completion.Complete.
func Complete(script string, offset int, cat Catalog) Result { return ec.Complete(script, offset, cat) }

// AutoTrigger is engine/completion.AutoTrigger.
func AutoTrigger(script string, offset int) bool { return ec.AutoTrigger(script, offset) }

// EnvCatalog is table.CompletionCatalog.
func EnvCatalog(env *table.TableEnvironment) Catalog { return table.CompletionCatalog(env) }
