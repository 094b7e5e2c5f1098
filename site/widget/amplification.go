package widget

// amplificationViews are the views of the amplification calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views amplification
func amplificationViews() []viewDef {
	// flow by default (the calls filling the tree, with its counters),
	// play on request: the same tree growing, without them
	return []viewDef{{"tree", typed(amplificationTree), false, false}, {"play", typed(amplificationPlay), true, false}, {"flow", typed(amplificationFlow), false, false}}
}
