package monitor

import "github.com/riffle-sql/riffle/engine/gateway"

// The workbench's job list (Jobs) takes a gateway's remote jobs as it
// takes embedded ones.
var _ Job = (*gateway.RemoteJob)(nil)
