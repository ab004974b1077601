// Package kafkapeek is the workbench's Kafka peek tab: the earliest or
// latest N messages of a topic (one partition or all) in a grid —
// partition, offset, timestamp, key, value, headers — with the selected
// message whole in a detail pane (pretty JSON; binary as hex and base64).
//
// It reads through a Connect function (the connection's
// kafkabrowser.Client) and reaches the workbench through Host (the UI
// goroutine, Messages, Create table…); package ui keeps the tabs.
package kafkapeek
