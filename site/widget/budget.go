package widget

// budgetViews are the views of the budget calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views budget
func budgetViews() []viewDef {
	return []viewDef{{"histogram", typed(budgetHistogram), false, false}, {"tokens", typed(budgetTokens), false, false}}
}
