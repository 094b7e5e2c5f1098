package calc

// article4 returns the calculators of article 4 (what backoff is for:
// Brooker's experiments and the metastable queue computed exactly), in
// the order the article introduces them.
func article4() []*Calculator {
	return inArticle(4,
		contentionCalc(),
		strategiesCalc(),
		openClosedCalc(),
		metastableCalc(),
	)
}
