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

// keyedTable is the "table" view of the calculators with a key in
// rowKeys (their views list it first, as "table", extra: the default set
// has "table" already, and a comparison picks a chart): the rows of
// resultTable, and the lists that share a key as tables of their own.
// Only the modules of those calculators link it (Set): the others' budget
// has no room for it.
func keyedTable(o *outCtx) error {
	story, rest := storySplit(o.c, o.r.list)
	writeTables(o.b, o, story, "table", o.loc.TOr("widget.results", "Results"))
	if len(rest) > 0 {
		openMore(o.b, "data-more-results", false, o.loc.TOr("widget.all_results", "All results"))
		writeTables(o.b, o, rest, "table-more", o.loc.TOr("widget.all_results", "All results"))
		o.b.WriteString("</details>\n")
	}
	return nil // no calculator with a key has notes (notes)
}

// keyOf returns the key of rowKeys whose list has as many elements as f,
// a list, if this calculator declares one (f may be the key itself).
func keyOf(o *outCtx, f field) (field, bool) {
	n, ok := listLen(f.Raw, maxTableList)
	if jsonKind(f.Raw) != 'a' || !ok || n == 0 {
		return field{}, false
	}
	for _, k := range &rowKeys {
		name, ok := strings.CutPrefix(k, o.c.Name+".")
		if !ok {
			continue
		}
		if raw, ok := o.r.raw(name); ok {
			if m, ok := listLen(raw, maxTableList); ok && m == n {
				return field{Name: name, Raw: raw}, true
			}
		}
	}
	return field{}, false
}

// maxColumns is the most lists one keyed table shows beside its key: a
// phone shows the key and about two of them, the rest scroll.
const maxColumns = 5

// tables writes the tables of one part of the results (view "table" or
// "table-more"), the first with the caption: the fields that tableField
// keeps, in order, as rows; each list of the length of a key of rowKeys,
// with the lists of that length next to it, as a table of its own, a row
// per element of the key (more than maxColumns lists: tables of about
// equal widths, each with the key's column).
type tables struct {
	b       *strings.Builder
	view    string
	caption string // the first table's, then ""
	rows    bool   // a table of rows is open
}

// open starts a table, of rows (its tbody open) or with a header row.
func (t *tables) open(rows bool) {
	t.close()
	writef(t.b, `<table class="widget-table" tabindex="0" data-view="%s">`, t.view)
	if t.caption != "" {
		writef(t.b, `<caption>%s</caption>`, esc(t.caption))
		t.caption = ""
	}
	if rows {
		t.b.WriteString("<tbody>\n")
		t.rows = true
	}
}

func (t *tables) close() {
	if t.rows {
		t.b.WriteString("</tbody></table>\n")
		t.rows = false
	}
}

func writeTables(b *strings.Builder, o *outCtx, fields []field, view, caption string) {
	t := tables{b: b, view: view, caption: caption}
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if !tableField(o.c, o.a, f) {
			continue
		}
		key, keyed := keyOf(o, f)
		var cols []field
		for keyed && i+1 < len(fields) {
			g := fields[i+1]
			if tableField(o.c, o.a, g) { // a hidden field between lists does not end the run
				if k, ok := keyOf(o, g); !ok || k.Name != key.Name || g.Name == key.Name {
					break
				}
				cols = append(cols, g)
			}
			i++
		}
		keyIn := f.Name == key.Name
		if keyed && !keyIn {
			cols = append([]field{f}, cols...)
		}
		if len(cols) == 0 { // a field alone: a row
			if !t.rows {
				t.open(true)
			}
			// writeRow's row, the value in its column format
			writef(b, `<tr data-row="%s"><th scope="row">%s</th><td data-out="%s" data-value="%s">%s</td></tr>`+"\n",
				esc(f.Name), esc(fieldLabel(o.c, o.loc, f.Name)), esc(f.Name), esc(string(f.Raw)), esc(columnText(o, f.Name, columnFormat(o, f.Name), f.Raw)))
			continue
		}
		n := (len(cols) + maxColumns - 1) / maxColumns
		width := (len(cols) + n - 1) / n
		for j := 0; j < len(cols); j += width {
			t.open(false)
			writeMatrix(b, o, key, keyIn && j == 0, cols[j:min(j+width, len(cols))])
		}
	}
	t.close()
}

// writeMatrix writes the thead and tbody of a keyed table: a column per
// list (its header carries the list's data-out and data-value, as a
// row's cell does; the key's when keyIn), a row per element of the key.
func writeMatrix(b *strings.Builder, o *outCtx, key field, keyIn bool, cols []field) {
	b.WriteString("<thead><tr>")
	writeHeader(b, o, key, keyIn)
	for _, f := range cols {
		writeHeader(b, o, f, true)
	}
	b.WriteString("</tr></thead><tbody>\n")
	keys, _ := splitList(key.Raw)
	elems := make([][][]byte, len(cols))
	formats := make([]string, len(cols))
	for i, f := range cols {
		elems[i], _ = splitList(f.Raw)
		formats[i] = columnFormat(o, f.Name)
	}
	for r, k := range keys {
		writef(b, `<tr data-row="%s.%s"><th scope="row">%s</th>`, esc(key.Name), strconv.Itoa(r), esc(cellText(o.c, o.loc, field{Name: key.Name, Raw: k})))
		for i, f := range cols {
			text := ""
			if r < len(elems[i]) {
				text = columnText(o, f.Name, formats[i], elems[i][r])
			}
			writef(b, `<td>%s</td>`, esc(text))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>\n")
}

func writeHeader(b *strings.Builder, o *outCtx, f field, out bool) {
	b.WriteString(`<th scope="col"`)
	if out {
		writef(b, ` data-out="%s" data-value="%s"`, esc(f.Name), esc(string(f.Raw)))
	}
	writef(b, `>%s</th>`, esc(fieldLabel(o.c, o.loc, f.Name)))
}

// columnFormat returns the format of field name's values in a keyed
// table (columnFormats), or "".
func columnFormat(o *outCtx, name string) string {
	field := o.c.Name + "." + name
	for _, f := range &columnFormats {
		if f[0] == field {
			return f[1]
		}
	}
	return ""
}

// columnText is the text of a value of a keyed table (an element of a
// column, or a field of a row): a number in format (columnFormat), else
// as cellText writes it.
func columnText(o *outCtx, name, format string, raw []byte) string {
	if format != "" && jsonKind(raw) == 'n' {
		if t, err := formatValue(raw, format, o.loc); err == nil {
			return t
		}
	}
	return cellText(o.c, o.loc, field{Name: name, Raw: raw})
}

// columnFormats are the formats of the values of keyed tables
// (CALC.FIELD), kept apart from fieldFormat's so that only the modules of
// those calculators hold them. A column reads down in one form: shares as
// per cents, whole milliseconds and seconds, a queue to a tenth,
// probabilities that span five orders of magnitude in three significant
// digits.
var columnFormats = [...][2]string{
	{"open-closed.work_cut_open", "%1"}, {"open-closed.work_cut_closed", "%1"},
	{"open-closed.success_share", "%1"}, {"retry-strategies.success_rate", "%1"},
	{"open-closed.server_s", "0"}, {"contention.time_ms", "0"}, {"contention.time_none_ms", "0"},
	{"contention.time_exponential_ms", "0"}, {"contention.time_full_ms", "0"}, {"contention.time_equal_ms", "0"},
	{"contention.time_decorrelated_ms", "0"}, {"metastable.sweep_drain_s", "0"},
	{"metastable.sweep_mean_queue", "1"}, {"metastable.sweep_p_full", "e3"},
}
