package kafkaconnections

import "fyne.io/fyne/v2/widget"

// What the workbench's tests read and press.

// NameEntry, BootstrapEntry, SecuritySelect, UserEntry, PasswordEntry and
// SavePasswordCheck are the form's fields.
func (cd *Dialog) NameEntry() *widget.Entry         { return cd.name }
func (cd *Dialog) BootstrapEntry() *widget.Entry    { return cd.bootstrap }
func (cd *Dialog) SecuritySelect() *widget.Select   { return cd.security }
func (cd *Dialog) UserEntry() *widget.Entry         { return cd.user }
func (cd *Dialog) PasswordEntry() *widget.Entry     { return cd.password }
func (cd *Dialog) SavePasswordCheck() *widget.Check { return cd.savePass }

// SaveButton and TestButton are Save and Test connection.
func (cd *Dialog) SaveButton() *widget.Button { return cd.saveBtn }
func (cd *Dialog) TestButton() *widget.Button { return cd.testBtn }

// Save saves the form as Save does.
func (cd *Dialog) Save() { cd.save() }

// Status is the line above the buttons.
func (cd *Dialog) Status() string { return cd.status.Text }

// Hide closes the dialog.
func (cd *Dialog) Hide() { cd.d.Hide() }
