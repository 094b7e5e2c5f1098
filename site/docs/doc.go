// Package docs holds the check of the project's own documents (README.md,
// content/README.md and every other Markdown file outside the articles):
// each path a document names in backticks or in a link exists in the
// tree, and each `make TARGET` it names is a target of the Makefile. A
// document that outlives a rename fails `go test ./...` instead of
// sending a reader to a file that is gone.
package docs
