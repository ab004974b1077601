// Package openfile is the review dialog of an opened data file (File ▸
// Open data file…, a file dropped on the window) or of a Kafka topic's
// sample (Create table from topic…): what engine/connector/infer found
// (the file, its format, delimiter and header, the rows read or sampled,
// notes), the columns with their types, empty counts and examples, the
// table's name, the rowtime offer with its watermark delay, and the
// generated CREATE TABLE, which stays editable and is checked as it is
// typed. Create table runs it and, when asked, adds it to the
// workspace's init script.
//
// It runs nothing itself: it asks the workbench through Host
// (openFileHost in package ui), which reads the file, runs the
// statement, keeps the init script and shows the new table.
package openfile
