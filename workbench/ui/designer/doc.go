// Package designer is the workbench's table designer (File ▸ New table…
// and the catalog tree's Edit table…): a form over authoring.Design with
// validation as you type, a live preview of the CREATE or ALTER
// statements, and column inference from a file path.
//
// It does not import the workbench: Show takes a Host, which package ui
// implements (running the DDL, keeping the init script, messages and
// status).
package designer
