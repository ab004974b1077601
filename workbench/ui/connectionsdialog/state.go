package connectionsdialog

import "fyne.io/fyne/v2/widget"

// What the workbench's tests read and press.

// NameEntry, URLEntry, TokenEntry, RESTEntry and PropsEntry are the form's
// fields; RunInitCheck its init-script box.
func (cd *Dialog) NameEntry() *widget.Entry    { return cd.name }
func (cd *Dialog) URLEntry() *widget.Entry     { return cd.url }
func (cd *Dialog) TokenEntry() *widget.Entry   { return cd.token }
func (cd *Dialog) RESTEntry() *widget.Entry    { return cd.rest }
func (cd *Dialog) PropsEntry() *widget.Entry   { return cd.props }
func (cd *Dialog) RunInitCheck() *widget.Check { return cd.runInit }

// NewButton, SaveButton, TestButton and UseButton are the dialog's New,
// Save, Test and Use in this tab (a gateway connection's).
func (cd *Dialog) NewButton() *widget.Button  { return cd.newBtn }
func (cd *Dialog) SaveButton() *widget.Button { return cd.saveBtn }
func (cd *Dialog) TestButton() *widget.Button { return cd.testBtn }
func (cd *Dialog) UseButton() *widget.Button  { return cd.useBtn }

// Status is the line under the form.
func (cd *Dialog) Status() string { return cd.status.Text }

// EmbeddedSettings is the embedded engine's settings line (the
// parallelism its jobs run at and where it comes from), "" until the
// embedded connection is shown.
func (cd *Dialog) EmbeddedSettings() string { return cd.embeddedSettings.Text }

// Editing is the name of the connection in the form ("" = a new one).
func (cd *Dialog) Editing() string { return cd.editing }

// Select shows the named connection (the first when there is none).
func (cd *Dialog) Select(name string) { cd.selectName(name) }

// Delete deletes the named connection without asking.
func (cd *Dialog) Delete(name string) { cd.delete(name) }

// Hide closes the dialog.
func (cd *Dialog) Hide() { cd.d.Hide() }
