package ui

func (wb *Workbench) showOpenFileDialog()      {}
func (wb *Workbench) openDataFile(path string) {}
