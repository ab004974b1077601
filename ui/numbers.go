package ui

import "github.com/riffle-sql/riffle/ui/widgets"

// groupDigits writes n with thousands separators (widgets.GroupDigits),
// for kafka_progress.go and plan_tab.go, which move with the typed
// physical plan's work; the files of ui use widgets.GroupDigits.
var groupDigits = widgets.GroupDigits
