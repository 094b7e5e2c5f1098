package calc

// article3 returns the calculators of article 3 (retry policies of real
// systems side by side), in the order the article introduces them.
func article3() []*Calculator {
	return inArticle(3,
		policiesCalc(),
		configureCalc(),
	)
}
