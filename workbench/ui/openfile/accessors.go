package openfile

import (
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/workbench/editor"
)

// Result is the inference result the dialog reviews.
func (r *Review) Result() *infer.Result { return r.res }

// Created is the name of the table once created ("" before).
func (r *Review) Created() string { return r.created }

// Hide closes the dialog.
func (r *Review) Hide() { r.dlg.Hide() }

// The dialog's widgets, for the workbench's tests and the Kafka topic's
// review (its init script note).

// NameEntry is the table name.
func (r *Review) NameEntry() *widget.Entry { return r.name }

// RowtimeCheck offers the event time (nil without timestamps).
func (r *Review) RowtimeCheck() *widget.Check { return r.rowtime }

// DelayEntry is the watermark delay (nil without timestamps).
func (r *Review) DelayEntry() *widget.Entry { return r.delay }

// UnitSelect is the delay's unit (nil without timestamps).
func (r *Review) UnitSelect() *widget.Select { return r.unit }

// InitCheck is "Add to the workspace's init script".
func (r *Review) InitCheck() *widget.Check { return r.initCheck }

// DDL is the CREATE TABLE's editor.
func (r *Review) DDL() *editor.Editor { return r.ddl }

// StatusLabel says whether the statement is ready, or its error.
func (r *Review) StatusLabel() *widget.Label { return r.status }

// CreateButton is Create table.
func (r *Review) CreateButton() *widget.Button { return r.create }
