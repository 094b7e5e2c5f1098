package widget

// estimateViews are the views of the estimate calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views estimate
func estimateViews() []viewDef {
	return []viewDef{{"rate", typed(estimateRate), false, false}}
}
