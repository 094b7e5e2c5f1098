package markdown

// compute is the stage between parsing and rendering: it runs the
// calculator of every widget and calc block the parser read (their
// arguments are parsed already), converts the formulas to MathML, and
// then resolves the citations against the results. Problems are added to
// st's errors at the line they concern; a widget whose calculator fails
// is left out, and so are the citations of it (they would only repeat
// its error).
func (c *Converter) compute(st *state) {
	ok := st.page.Widgets[:0]
	for _, w := range st.page.Widgets {
		if c.opts.RunArgs != nil && w.Kind == "widget" {
			w.Args = c.opts.RunArgs(w)
		}
		res, err := w.Calc.Run(w.Args)
		if err != nil {
			if w.inPlayground {
				st.errorAtLine(w.Line, "playground: %s on its defaults: %v", w.Calc.Name, err)
			} else {
				st.errorAtLine(w.errorLine(err), "%s %s: %s", w.Kind, w.ID, err.Error())
			}
			delete(st.ids, w.ID)
			st.broken[w.ID] = true
			continue
		}
		w.Result = res
		ok = append(ok, w)
	}
	st.page.Widgets = ok
	for _, m := range st.maths {
		c.convertMath(st, m)
	}
	for _, ct := range st.cites {
		if st.broken[ct.ID] && st.ids[ct.ID] == nil {
			continue
		}
		c.resolveCitation(st, ct, st.ids)
		st.page.Citations = append(st.page.Citations, ct)
	}
}
