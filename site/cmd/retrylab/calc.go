package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"retrylab/core/calc"
)

// runCalc implements `retrylab calc`.
func runCalc(args []string, stdout, stderr io.Writer) int {
	reg := calc.New()
	if len(args) == 0 {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, c := range reg.List() {
			fmt.Fprintf(tw, "%s\tarticle %d\t%s\n", c.Name, c.Article, c.Help)
		}
		tw.Flush()
		return 0
	}
	c, ok := reg.Lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "retrylab calc: %s\n", reg.UnknownError(args[0]).Message)
		return 2
	}
	rest := args[1:]
	for _, a := range rest {
		if a == "-h" || a == "-help" || a == "--help" {
			calcHelp(stdout, c)
			return 0
		}
	}
	res, err := c.Compute(nil)
	if len(rest) > 0 {
		var a calc.Args
		a, err = c.ParsePairs(rest)
		if err == nil {
			res, err = c.Run(a)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "retrylab calc %s: %s\n", c.Name, oneLine(err.Error()))
		return 2
	}
	b, err := json.Marshal(res)
	if err != nil {
		fmt.Fprintf(stderr, "retrylab calc %s: %v\n", c.Name, err)
		return 1
	}
	stdout.Write(append(b, '\n'))
	return 0
}

func calcHelp(w io.Writer, c *calc.Calculator) {
	fmt.Fprintf(w, "%s: %s\n\nparameters:\n", c.Name, c.Help)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  name\ttype\tdefault\trange\tunit\tmeaning")
	for _, p := range c.Params {
		def := p.Default
		if def == "" && p.Optional {
			def = "(" + p.DefaultNote + ")"
			if p.DefaultNote == "" {
				def = "(none)"
			}
		}
		unit := p.Unit
		if unit == "" {
			unit = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", p.Name, p.Kind, def, p.RangeText(), unit, p.Help)
	}
	tw.Flush()
	if len(c.Notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range c.Notes {
			fmt.Fprintln(w, n)
		}
	}
}

// oneLine keeps an error message on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
