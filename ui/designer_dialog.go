package ui

func (wb *Workbench) showTableDesignerFor(r catalogbrowserRef) {}
func (wb *Workbench) showTableDesigner(r *catalogbrowserRef)   {}
