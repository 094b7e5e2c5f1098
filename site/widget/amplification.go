package widget

// amplificationViews are the views of the amplification calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views amplification
func amplificationViews() []viewDef {
	return []viewDef{{"tree", typed(amplificationTree), false, false}, {"play", typed(amplificationPlay), false, false}, {"flow", typed(amplificationFlow), true, false}}
}
