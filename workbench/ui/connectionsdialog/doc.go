// Package connectionsdialog is the workbench's File ▸ Connections…
// dialog: the connections on the left (the embedded engine first, then
// the Flink SQL Gateway connections), the selected one's settings on the
// right — name, gateway URL, token, cluster REST URL, session properties,
// whether new sessions run the init script — with New, Delete, Save,
// Test (open and close a session, probe the cluster REST API) and Use in
// this tab.
//
// It keeps no connections itself: it reads and changes them through Host
// (connectionsHost in package ui), which owns the connections, their
// sessions and the workspace file.
package connectionsdialog
