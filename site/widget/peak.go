package widget

// peakViews are the views of the peak calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views peak
func peakViews() []viewDef {
	return []viewDef{{"distribution", typed(peakDistribution), false, false}, {"bin", typed(peakBin), true, false}}
}
