// Package kafkaconnections is the workbench's File ▸ Kafka connections…
// dialog: the Kafka connections at the left (and "+ New Kafka
// connection"), the selected one's form at the right — name, bootstrap
// servers, security protocol, SASL mechanism, user and password (saved
// in the workspace only when asked), CA file — with Save, Delete and
// Test connection (kafkabrowser.Test, bounded by 10 s).
//
// It keeps no connections itself: it reads and changes them through Host
// (kafkaConnectionsHost in package ui), which owns the clients, the
// Kafka tree and the workspace file.
package kafkaconnections
