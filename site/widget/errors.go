package widget

// errorsViews are the views of the errors calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views errors
func errorsViews() []viewDef {
	return []viewDef{{"classification", typed(errorsClassification), false, false}}
}
