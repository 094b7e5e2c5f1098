package widget

import (
	"strconv"
	"strings"
)

// rowKeys are the result fields (CALC.FIELD) whose list names the rows of
// the lists of the same length beside it: open-closed's four cases, the
// strategies compared, a sweep's axis, the policies simulated (a hidden
// key: the comparison's table names them; throttled, beside it, takes
// their names as its rows). The results table writes such lists as one
// table, a row per case and a column per field, where a cell would read
// "5.009, 2.712, 2.596 e 2.587" and leave the reader to count which number
// is whose (reader review).
var rowKeys = [...]string{
	"open-closed.case", "retry-strategies.strategy", "contention.strategy", "contention.clients_axis",
	"metastable.sweep_lambda", "policies.policy",
}

// segment is a run of a results table's fields drawn as one table: rows
// of single fields (key nil), or lists that share the rows named by key.
type segment struct {
	key    *field
	keyIn  bool // key is among fields (the table's first column is its own)
	fields []field
}

// rowKey returns the key field of this calculator whose list has n
// elements, if it declares one.
func rowKey(o *outCtx, n int) (field, bool) {
	for _, k := range &rowKeys {
		name, ok := strings.CutPrefix(k, o.c.Name+".")
		if !ok {
			continue
		}
		raw, ok := o.r.raw(name)
		if !ok || jsonKind(raw) != 'a' {
			continue
		}
		if m, ok := listLen(raw, maxTableList); ok && m == n {
			return field{Name: name, Raw: raw}, true
		}
	}
	return field{}, false
}

// segments splits the fields of one table (those tableField keeps, in
// order) into runs: each list of the length of a key of rowKeys, with the
// lists of that length next to it, is a segment of its own.
func segments(o *outCtx, fields []field) []segment {
	var segs []segment
	for _, f := range fields {
		if !tableField(o.c, o.a, f) {
			continue
		}
		var key field
		keyed := false
		if jsonKind(f.Raw) == 'a' {
			if n, ok := listLen(f.Raw, maxTableList); ok && n > 0 {
				key, keyed = rowKey(o, n)
			}
		}
		last := len(segs) - 1
		switch {
		case keyed && last >= 0 && segs[last].key != nil && segs[last].key.Name == key.Name && f.Name != key.Name:
			segs[last].fields = append(segs[last].fields, f)
		case keyed:
			seg := segment{key: &key}
			if f.Name == key.Name {
				seg.keyIn = true
			} else {
				seg.fields = []field{f}
			}
			segs = append(segs, seg)
		case last >= 0 && segs[last].key == nil:
			segs[last].fields = append(segs[last].fields, f)
		default:
			segs = append(segs, segment{fields: []field{f}})
		}
	}
	// a key alone (its lists hidden or elsewhere) is a row like any other;
	// more than maxColumns lists are split into tables of about equal
	// widths (contention's ten curves: times, then calls), each with the
	// key's column
	var out []segment
	for _, s := range segs {
		switch n := len(s.fields); {
		case s.key != nil && n == 0:
			out = append(out, segment{fields: []field{*s.key}})
		case s.key != nil && n > maxColumns:
			tables := (n + maxColumns - 1) / maxColumns
			width := (n + tables - 1) / tables
			for i := 0; i < n; i += width {
				out = append(out, segment{key: s.key, keyIn: s.keyIn && i == 0, fields: s.fields[i:min(i+width, n)]})
			}
		default:
			out = append(out, s)
		}
	}
	return out
}

// maxColumns is the most lists one keyed table shows beside its key: a
// phone shows the key and about two of them, the rest scroll.
const maxColumns = 5

// writeTables writes the fields of one part of the results (view "table"
// or "table-more") as its tables, the first with the caption.
func writeTables(b *strings.Builder, o *outCtx, fields []field, view, caption string) {
	for i, s := range segments(o, fields) {
		writef(b, `<table class="widget-table" tabindex="0" data-view="%s">`, view)
		if i == 0 {
			writef(b, `<caption>%s</caption>`, esc(caption))
		}
		if s.key == nil {
			b.WriteString("<tbody>\n")
			for _, f := range s.fields {
				writeRow(b, o, f)
			}
			b.WriteString("</tbody></table>\n")
			continue
		}
		writeMatrix(b, o, s)
	}
}

// writeMatrix writes the thead and tbody of a keyed segment: a column per
// field (its header carries the field's data-out and data-value, as a
// row's cell does), a row per element of the key.
func writeMatrix(b *strings.Builder, o *outCtx, s segment) {
	keys, _ := splitList(s.key.Raw)
	cols := make([][][]byte, len(s.fields))
	for i, f := range s.fields {
		cols[i], _ = splitList(f.Raw)
	}
	b.WriteString("<thead><tr>")
	header := func(f field, out bool) {
		if out {
			writef(b, `<th scope="col" data-out="%s" data-value="%s">%s</th>`, esc(f.Name), esc(string(f.Raw)), labelHTML(fieldLabel(o.c, o.loc, f.Name)))
		} else {
			writef(b, `<th scope="col">%s</th>`, labelHTML(fieldLabel(o.c, o.loc, f.Name)))
		}
	}
	header(*s.key, s.keyIn)
	for _, f := range s.fields {
		header(f, true)
	}
	b.WriteString("</tr></thead><tbody>\n")
	for r, k := range keys {
		writef(b, `<tr data-row="%s.%s"><th scope="row">%s</th>`, esc(s.key.Name), strconv.Itoa(r), esc(cellText(o.c, o.loc, field{Name: s.key.Name, Raw: k})))
		for i, f := range s.fields {
			text := ""
			if r < len(cols[i]) {
				text = cellText(o.c, o.loc, field{Name: f.Name, Raw: cols[i][r]})
			}
			writef(b, `<td>%s</td>`, esc(text))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>\n")
}
