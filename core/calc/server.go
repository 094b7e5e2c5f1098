package calc

import (
	"math"
	"strconv"
	"strings"

	"retrylab/core/standin/heapsort"
)

// itemWork is the work a number listed in an answer counts for in a
// calculator's Work: a bin of a histogram (its count and its start) costs
// little to compute but about 16 bytes to send.
const itemWork = 100

// MaxAnswerBytes bounds the JSON answer of the shared server: the
// calculators' ServerWork keeps every answer below it
// (TestServerWorkBudget), and the server refuses a larger one rather
// than send it.
const MaxAnswerBytes = 512 << 10

// maxScale is the largest scale ServerCheck takes: a hundred times the
// bound (beyond, 1).
const maxScale = 100

// ServerCheck refuses, with a CodeServer *Error, values whose Work is
// above the calculator's ServerWork: the bound of the shared server (the
// HTTP API of `retrylab serve` and of the Worker), stricter than the
// command line's and the browser's. page is where a reader computes the
// same values in the browser (the calculator's embed page with a's query,
// for example "/it/embed/dispatch/?jobs=100000"); the message names it and
// the command line that computes them. scale, > 0, is the fraction
// of ServerWork this server accepts (0 is 1: the Worker, whose wasm is
// slower, accepts less; a faster machine than the calibration's may
// accept more, up to maxScale). Nil when the values are within the bound or the
// calculator declares no Work.
func (c *Calculator) ServerCheck(a Args, scale float64, page string) *Error {
	if c.Work == nil || c.ServerWork <= 0 {
		return nil
	}
	if !(scale > 0 && scale <= maxScale) {
		scale = 1
	}
	bound := math.Floor(c.ServerWork * scale)
	w := c.Work(a)
	if w <= bound {
		return nil
	}
	return newError(c.Name, c.WorkParam, CodeServer, map[string]string{
		"count": strconv.FormatFloat(w, 'f', 0, 64),
		"max":   strconv.FormatFloat(bound, 'f', 0, 64),
		"page":  page,
		"cli":   c.CommandLine(a),
	})
}

// CommandLine returns the command that computes a on the reader's
// machine: "retrylab calc NAME key=value …", the given values in name
// order, each value quoted for a POSIX shell when it needs it.
func (c *Calculator) CommandLine(a Args) string {
	names := make([]string, 0, len(a.raw))
	for k := range a.raw {
		names = append(names, k)
	}
	heapsort.Strings(names)
	var b strings.Builder
	b.WriteString("retrylab calc " + c.Name)
	for _, k := range names {
		b.WriteString(" " + shellWord(k+"="+a.raw[k]))
	}
	return b.String()
}

// shellWord quotes s for a POSIX shell when it holds anything but
// letters, digits and ,._+-=:/.
func shellWord(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(",._+-=:/", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
