// Package topicbrowser is the workbench's Kafka tree under the catalog
// tree: each Kafka connection, its topics (internal ones hidden unless
// asked) with partition and message counts, each topic's partitions with
// their start and end offsets, and the consumer groups that committed
// offsets on it with their lag per partition. Topics are read when a
// connection is first opened, groups when a topic is; Refresh reads
// again. A double click on a topic peeks at it; a right click peeks,
// creates a table from it or inserts its name into the editor.
//
// It keeps only what it read (kafkabrowser.Topic, kafkabrowser.GroupLag
// per connection name); the connections, their clients, the peek tabs
// and the dialogs are the workbench's, reached through Host
// (topicBrowserHost in package ui).
package topicbrowser
