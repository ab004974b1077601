package gateway

import "github.com/riffle-sql/riffle/monitor"

// The workbench's job list (monitor.Jobs) takes remote jobs as it takes
// embedded ones.
var _ monitor.Job = (*RemoteJob)(nil)
