package widget

import (
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/core/standin/bigint"
	"retrylab/site/locale"
)

// contractCalcs are calculators shaped as /work/shared/CALCULATORS.md
// declares them (parameters and result fields), with the article's
// numbers as fixed results: they prove the specialised views before (and
// independently of) the real calculators.
func contractCalcs() []*calc.Calculator {
	list := []*calc.Calculator{
		{Name: "amplification", Params: []calc.Param{
			{Name: "attempts", Kind: calc.IntList, Default: "3,3,3", Min: calc.Incl(1), Max: calc.Incl(100), MaxLen: 10},
		}, Run: func(a calc.Args) (any, error) {
			att := a.Ints("attempts")
			per := make([]bigint.Int, len(att))
			p := int64(1)
			for i, x := range att {
				p *= int64(x)
				per[i] = bigint.FromInt64(p)
			}
			return calc.AmplificationResult{Attempts: att, Levels: len(att), CallsPerLevel: per, FinalCalls: bigint.FromInt64(p)}, nil
		}},
		{Name: "budget", Params: []calc.Param{
			{Name: "requests", Kind: calc.Int, Default: "100", Min: calc.Incl(1), Max: calc.Incl(1e6)},
			{Name: "attempts", Kind: calc.Int, Default: "3", Min: calc.Incl(1), Max: calc.Incl(100)},
			{Name: "tokens", Kind: calc.Int, Default: "20", Min: calc.Incl(0), Max: calc.Incl(1e9)},
			{Name: "processes", Kind: calc.Int, Default: "1", Min: calc.Incl(1), Max: calc.Incl(1000)},
			{Name: "order", Kind: calc.Choice, Default: "rounds", Choices: []string{"rounds", "depth"}},
		}, Run: func(a calc.Args) (any, error) {
			return calc.BudgetResult{FirstAttempts: 100, Retries: 20, TotalAttempts: 120, UnbudgetedTotal: 300, AttemptsHistogram: []int64{80, 20, 0}}, nil
		}},
		{Name: "jitter", Params: []calc.Param{
			{Name: "clients", Kind: calc.Int, Default: "100", Min: calc.Incl(1), Max: calc.Incl(1e6)},
			{Name: "base_ms", Kind: calc.Float, Default: "100", Min: calc.Excl(0), Max: calc.Incl(1e7), Unit: "ms"},
			{Name: "width_ms", Kind: calc.Float, Default: "10", Min: calc.Excl(0), Unit: "ms"},
			{Name: "seed", Kind: calc.BigInt, Default: "20261017"},
			{Name: "strategy", Kind: calc.Choice, Default: "full", Choices: []string{"fixed", "full", "equal", "decorrelated"}},
			{Name: "waves", Kind: calc.Int, Default: "1", Min: calc.Incl(1), Max: calc.Incl(30)},
			{Name: "cap_ms", Kind: calc.Float, Optional: true, DefaultNote: "base_ms × 2^(waves-1)", Min: calc.Excl(0), Unit: "ms"},
		}, Run: func(a calc.Args) (any, error) {
			return calc.JitterResult{Total: 100, Counts: []int{9, 7, 9, 12, 14, 14, 7, 11, 6, 11},
				BinStartsMS: []float64{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}, Peak: 14, PeakBinStartMS: 40,
				MeanArrivalMS: 48.4, MaxArrivalMS: 99.1, ArrivalsMS: []float64{1, 2}}, nil
		}},
		{Name: "deadline", Params: []calc.Param{
			{Name: "attempts", Kind: calc.Int, Default: "3", Min: calc.Incl(1), Max: calc.Incl(100)},
			{Name: "timeout_ms", Kind: calc.Float, Default: "200", Min: calc.Excl(0), Unit: "ms"},
			{Name: "waits_ms", Kind: calc.FloatList, Default: "50,100", Min: calc.Incl(0), Unit: "ms"},
			{Name: "deadline_ms", Kind: calc.Float, Default: "600", Min: calc.Excl(0), Unit: "ms"},
			{Name: "min_attempt_ms", Kind: calc.Float, Default: "0", Min: calc.Incl(0), Unit: "ms"},
		}, Run: func(a calc.Args) (any, error) {
			return calc.DeadlineResult{WorstCaseMS: 750, Fits: false, RemainingBeforeAttemptMS: []float64{600, 350, 50},
				AttemptBudgetMS: []float64{200, 200, 50}, AttemptsAdmitted: 3}, nil
		}},
		{Name: "peak", Params: []calc.Param{
			{Name: "clients", Kind: calc.Int, Default: "100", Min: calc.Incl(1), Max: calc.Incl(100000)},
			{Name: "bins", Kind: calc.Int, Default: "10", Min: calc.Incl(1), Max: calc.Incl(10000)},
			{Name: "threshold", Kind: calc.Int, Default: "25", Min: calc.Incl(0), Max: calc.Incl(100000)},
		}, Run: func(a calc.Args) (any, error) {
			return calc.PeakResult{PBin: 0.1, ExpectedPerBin: 10, SingleBinTail: 1.30728e-5, UnionBound: 1.30728e-4, Note: "too large"}, nil
		}},
	}
	return list
}

func TestContractViews(t *testing.T) {
	all := locales(t)
	want := map[string][]string{
		"amplification": {`data-view="tree"`, `data-view="tree">L&#39;albero delle chiamate non è disegnato`, `data-out="calls_per_level" data-value="[3,9,27]"`, `data-out="final_calls" data-value="27"`},
		"budget":        {`data-view="histogram"`, `data-view="tokens"`, `data-out="attempts_histogram" data-value="[80,20,0]"`},
		"jitter":        {`data-view="histogram"`, `chart-bar chart-bar-mark`, `data-out="peak" data-value="14"`, `name="cap_ms" value=""`, `placeholder=`, `data-action="reseed"`},
		"deadline":      {`data-view="timeline"`, `chart-seg-over`, `chart-seg-wait`, `data-out="fits" data-value="false"`},
		"peak":          {`data-view="bin"`, `data-out="exact_any_bin" data-value="null">—<`, `1,307×10⁻⁵`},
	}
	for _, c := range contractCalcs() {
		for _, lang := range []string{"it", "es", "zh"} {
			out, err := Render(Spec{Calc: c, ID: "w"}, all[lang])
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			if strings.Contains(out, `class="widget-note" data-view`) && c.Name != "amplification" {
				t.Errorf("%s %s: a view could not be drawn:\n%s", c.Name, lang, out)
			}
			for _, w := range want[c.Name] {
				if lang == "it" && !strings.Contains(out, w) {
					t.Errorf("%s: no %s", c.Name, w)
				}
			}
			for _, en := range []string{"Retries per", "Calls made at each layer", "Worst case against", "How many clients land", "Requests by number"} {
				if strings.Contains(out, en) {
					t.Errorf("%s %s: English fallback %q", c.Name, lang, en)
				}
			}
		}
	}
}

// A tree too large to draw is replaced by a note, the bars stay.
func TestTreeTooLarge(t *testing.T) {
	c := contractCalcs()[0]
	out, err := Render(Spec{Calc: c, ID: "w", Values: url.Values{"attempts": {"5,5,5"}}, Views: []string{"table", "tree"}}, locales(t)["it"])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `<p class="widget-note" data-view="tree">`) || strings.Contains(out, "chart-tree") || !strings.Contains(out, "125") {
		t.Errorf("no note instead of a 125-leaf tree:\n%s", out)
	}
}

// A view whose fields are missing degrades to a note, never to a panic or
// broken markup.
func TestViewOnWrongResult(t *testing.T) {
	c := &calc.Calculator{Name: "jitter", Params: []calc.Param{{Name: "x", Kind: calc.Int, Default: "1"}},
		Run: func(calc.Args) (any, error) { return jsonResult(map[string]any{"counts": "not a list"}), nil }}
	a, _ := c.Parse(nil)
	res, _ := c.Run(a)
	out, err := All().RenderOutput(c, a, res, []string{"table", "histogram"}, locale.Locale{Lang: "it"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `class="widget-note" data-view="histogram"`) || strings.Contains(out, "<svg") {
		t.Errorf("got\n%s", out)
	}
}

// Calculators without a specialised view get the table and a bar chart
// of their numeric lists. (A calculator outside calc.New() has no
// generated encoder: its result comes already encoded, jsonResult.)
func TestGenericView(t *testing.T) {
	c := &calc.Calculator{Name: "brand-new", Params: []calc.Param{{Name: "k", Kind: calc.Int, Default: "3", Min: calc.Incl(1), Max: calc.Incl(10)}},
		Run: func(a calc.Args) (any, error) {
			return jsonResult(map[string]any{"depth": []int{1, 4, 2}, "mean": 2.5, "ok": true, "mode": "fast"}), nil
		}}
	if v := All().DefaultViews(c); strings.Join(v, ",") != "table,bars" {
		t.Errorf("DefaultViews = %v", v)
	}
	out, err := Render(Spec{Calc: c, ID: "g"}, locale.Locale{Lang: "es"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`data-out="mean" data-value="2.5">2,5<`, `data-out="ok" data-value="true">sí<`, `data-out="mode" data-value="&#34;fast&#34;">fast<`, `<figure class="widget-chart" data-view="bars"`, `data-out="depth" data-value="[1,4,2]"`} {
		if !strings.Contains(out, w) {
			t.Errorf("no %s in\n%s", w, out)
		}
	}
}

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{0, 14, "0 5 10 15"},
		{0, 1, "0 0.2 0.4 0.6 0.8 1"},
		{0, 750, "0 200 400 600 800"},
		{0, 0, "0 1"},
		{0, 1.30728e-5, "0 0.000005 0.00001 0.000015"},
	} {
		var got []string
		for _, v := range niceTicks(tc.lo, tc.hi, 5) {
			got = append(got, calc.FormatFloat(v))
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("niceTicks(%v, %v) = %s, want %s", tc.lo, tc.hi, g, tc.want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		want   string
	}{
		{[]float64{32, 226.2, 6300}, "10 100 1000 10000"},
		{[]float64{10, 100}, "10 100"},
		{[]float64{5}, "1 10"},
		{[]float64{0, -3, 0.02, 40}, "0.01 0.1 1 10 100"},
		{[]float64{0.001, 1e6}, "0.001 0.1 10 1000 100000 10000000"}, // 9 decades: every second power
		{[]float64{0, 0}, "1 10"},
		{nil, "1 10"},
	} {
		ch := chart{Series: []series{{Values: tc.values}}}
		ymax := 0.0
		for _, v := range tc.values {
			ymax = math.Max(ymax, v)
		}
		var got []string
		for _, v := range ch.logTicks(ymax) {
			got = append(got, calc.FormatFloat(v))
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("logTicks(%v) = %s, want %s", tc.values, g, tc.want)
		}
	}
}

// TestLogAxis: a YLog chart places a value by its logarithm, between the
// powers of ten around it, and its data table keeps the value itself.
func TestLogAxis(t *testing.T) {
	loc := locales(t)["it"]
	ch := chart{View: "v", Title: "t", Line: true, YLog: true, X: []float64{1, 2, 3}, Series: []series{{Name: "s", Values: []float64{10, 100, 1000}}}}
	var b strings.Builder
	ch.write(&b, loc)
	out := b.String()
	// the three points are evenly spaced on the axis
	pts := regexp.MustCompile(`<polyline[^>]* points="([^"]*)"`).FindStringSubmatch(out)
	if pts == nil {
		t.Fatalf("no line in\n%s", out)
	}
	var ys []float64
	for _, p := range strings.Fields(pts[1]) {
		_, y, _ := strings.Cut(p, ",")
		v, err := strconv.ParseFloat(y, 64)
		if err != nil {
			t.Fatal(err)
		}
		ys = append(ys, v)
	}
	if len(ys) != 3 || math.Abs((ys[0]-ys[1])-(ys[1]-ys[2])) > 0.2 || ys[0] <= ys[1] {
		t.Errorf("points at y %v, want evenly spaced upwards", ys)
	}
	for _, w := range []string{">1.000</td>", ">100</td>", ">1.000</text>", ">10</text>"} {
		if !strings.Contains(out, w) {
			t.Errorf("no %s in\n%s", w, out)
		}
	}
}

// The real calculators draw their own charts at their defaults.
func TestRealViews(t *testing.T) {
	loc := locales(t)["it"]
	for name, want := range map[string][]string{
		"amplification": {`data-view="flow"`, `data-out="final_calls" data-value="27"`},
		"peak":          {`<figure class="widget-chart" data-view="distribution"`, `data-out="max_at_least"`, "valore più probabile"},
		"jitter":        {`<figure class="widget-chart" data-view="histogram"`, `chart-bar chart-bar-mark`},
		"deadline":      {`<figure class="widget-chart" data-view="timeline"`},
		"budget":        {`<figure class="widget-chart" data-view="histogram"`, `<figure class="widget-chart" data-view="tokens"`},
	} {
		c, ok := calc.New().Lookup(name)
		if !ok {
			t.Errorf("no calculator %s", name)
			continue
		}
		out, err := Render(Spec{Calc: c, ID: "w"}, loc)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, `class="widget-note"`) {
			t.Errorf("%s: a note at the defaults", name)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %s", name, w)
			}
		}
	}
}

// A result too large to compute exactly is explained in the reader's
// language, not in the calculator's English.
func TestPeakNotes(t *testing.T) {
	c, _ := calc.New().Lookup("peak")
	out, err := Render(Spec{Calc: c, ID: "w", Values: url.Values{"clients": {"100000"}, "bins": {"10000"}, "threshold": {"30"}}}, locales(t)["es"])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `data-note="max_note">La distribución del intervalo más lleno no se calcula`) || strings.Contains(out, "not computed") {
		t.Errorf("no Spanish note:\n%s", out)
	}
	if !strings.Contains(out, `<figure class="widget-chart" data-view="bin"`) {
		t.Error("no single-bin distribution in place of the fullest bin's")
	}
}

// A histogram of many bins is drawn as at most maxBars bars that sum
// consecutive bins, and stays small.
func TestManyBins(t *testing.T) {
	c, _ := calc.New().Lookup("jitter")
	out, err := Render(Spec{Calc: c, ID: "w", Values: url.Values{"width_ms": {"0.001"}}}, locales(t)["it"])
	if err != nil {
		t.Fatal(err)
	}
	// the bars, not the key's swatches
	bars := out
	if i := strings.Index(bars, `<g class="chart-legend">`); i >= 0 {
		bars = bars[:i]
	}
	if n := strings.Count(bars, `<rect class="chart-bar`); n > maxBars {
		t.Errorf("%d bars", n)
	}
	if len(out) > 200_000 {
		t.Errorf("%d bytes of HTML", len(out))
	}
	if !strings.Contains(out, "chart-bar-mark") {
		t.Error("the peak is not marked")
	}
	if got, want := group([]float64{1, 2, 3, 4, 5}, 2), []float64{3, 7, 5}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("group = %v", got)
	}
}

// A large backoff run draws only its own setting, not a second run.
func TestBackoffLarge(t *testing.T) {
	c, _ := calc.New().Lookup("backoff")
	out, err := Render(Spec{Calc: c, ID: "w", Values: url.Values{"workers": {"50000"}, "max_attempts": {"4"}}}, locales(t)["it"])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `data-view="arrivals"`) || strings.Contains(out, "chart-legend") {
		t.Error("a large run should draw one series")
	}
	out, err = Render(Spec{Calc: c, ID: "w"}, locales(t)["it"])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "chart-legend") {
		t.Error("the default run should compare with and without jitter")
	}
}

// The table leaves out fields that repeat the form, and keeps those that
// differ from it: a preset's effective values, a derived default.
func TestEchoes(t *testing.T) {
	loc := locales(t)["it"]
	c, _ := calc.New().Lookup("backoff")
	out, err := Render(Spec{Calc: c, ID: "w", Values: url.Values{"policy": {"batch"}}}, loc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `data-out="max_attempts" data-value="8"`) || strings.Contains(out, `<td data-out="workers"`) || strings.Contains(out, `<td data-out="retry_after_s"`) {
		t.Error("batch: the effective max_attempts should show, workers and the absent Retry-After not")
	}
	out, _ = Render(Spec{Calc: c, ID: "w"}, loc)
	if strings.Contains(out, `<td data-out="max_attempts"`) {
		t.Error("custom: max_attempts repeats the form")
	}
	j, _ := calc.New().Lookup("jitter")
	out, _ = Render(Spec{Calc: j, ID: "w"}, loc)
	if !strings.Contains(out, `<td data-out="cap_ms" data-value="100">100</td>`) || strings.Contains(out, `<td data-out="clients"`) {
		t.Error("jitter: the derived cap should show, the clients not")
	}
}

// TestTreeOnce: the amplification widget draws its call tree once: the
// tree view's drawing, or the flow's (the same tree filling layer by
// layer) when the widget shows both; the bars stay.
func TestTreeOnce(t *testing.T) {
	c, _ := calc.New().Lookup("amplification")
	loc := locales(t)["es"]
	for _, tc := range []struct {
		views       []string
		static, bar int
	}{
		{[]string{"table", "tree"}, 1, 1},
		{[]string{"table", "tree", "flow"}, 0, 1},
		{[]string{"table", "tree", "play"}, 0, 1},
		{nil, 0, 1}, // the default set (an embed's)
	} {
		html, err := Render(Spec{Calc: c, ID: "amp", Views: tc.views}, loc)
		if err != nil {
			t.Fatal(err)
		}
		// the tree view's static tree (the play view draws its own)
		n := 0
		for _, part := range strings.Split(html, "<figure")[1:] {
			if strings.Contains(part, `data-view="tree"`) && strings.Contains(part, `class="chart chart-tree"`) {
				n++
			}
		}
		if n != tc.static {
			t.Errorf("%v: %d static trees, want %d", tc.views, n, tc.static)
		}
		if n := strings.Count(html, `data-out="calls_per_level"`); n < tc.bar {
			t.Errorf("%v: no bars of the calls per layer", tc.views)
		}
	}
}

// TestMarkKey: a chart whose marked bars or points mean something of
// their own names them in its key (chart.MarkName), with a swatch drawn
// as they are: tenacity's bound over the accepted amplification was a pink
// bar that no key explained (reader review).
func TestMarkKey(t *testing.T) {
	for _, tc := range []struct{ calc, view string }{
		{"configure", "bounds"},
		{"retry-strategies", "curves"},
		{"metastable", "sweep"},
		{"jitter", "histogram"},
	} {
		c, ok := calc.New().Lookup(tc.calc)
		if !ok {
			t.Fatalf("no calculator %s", tc.calc)
		}
		for lang, loc := range locales(t) {
			html, err := Render(Spec{Calc: c, ID: "w", Views: []string{tc.view}}, loc)
			if err != nil {
				t.Fatal(err)
			}
			fig := html[strings.Index(html, `data-view="`+tc.view+`"`):]
			if !strings.Contains(fig, "chart-bar-mark") {
				t.Errorf("%s %s %s: nothing marked at the defaults: the test needs other values", lang, tc.calc, tc.view)
				continue
			}
			key := fig[strings.Index(fig, `<g class="chart-legend">`)+1:]
			key = key[:strings.Index(key, "</g>")]
			if !strings.Contains(key, `chart-bar-mark`) {
				t.Errorf("%s %s %s: the key has no swatch of the marked values: %s", lang, tc.calc, tc.view, key)
			}
			want := loc.TOr("view."+tc.calc+"."+tc.view+".mark", "")
			if want == "" || !strings.Contains(key, esc(want)) {
				t.Errorf("%s %s %s: the key does not name the marked values (view.%s.%s.mark = %q)", lang, tc.calc, tc.view, tc.calc, tc.view, want)
			}
		}
	}
}

// TestDistinctFieldShown: errors' fallback result (the class allows
// another provider) is not the fallback parameter (the dispatcher has
// one): its row stays whatever the two values (reader review: it came
// and went with the parameter).
func TestDistinctFieldShown(t *testing.T) {
	c, ok := calc.New().Lookup("errors")
	if !ok {
		t.Fatal("no calculator errors")
	}
	loc := locales(t)["it"]
	for _, q := range []string{"class=rate_limited&fallback=true", "class=rate_limited&fallback=false", "class=overloaded&fallback=true", "class=validation_error&fallback=false"} {
		vals, _ := url.ParseQuery(q)
		a, err := c.Parse(vals)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Run(a)
		if err != nil {
			t.Fatal(err)
		}
		html, err := All().RenderOutput(c, a, res, All().DefaultViews(c), loc)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(html, `data-out="fallback"`) {
			t.Errorf("%s: no row of the result's fallback", q)
		}
	}
}

// TestKeyedTables: lists that share a key of rowKeys are one table, a row
// per element of the key and a column per list, each cell one number (no
// cell lists "5.009, 2.712, 2.596 e 2.587" for the reader to match with
// the cases), and the columns keep their fields' data-out.
func TestKeyedTables(t *testing.T) {
	loc := locales(t)["it"]
	// keyedTable writes no notes: a calculator with a key must have none
	for _, n := range notes {
		for _, k := range rowKeys {
			if strings.Split(n.field, ".")[0] == strings.Split(k, ".")[0] {
				t.Errorf("%s has a note (%s): keyedTable would not write it", strings.Split(k, ".")[0], n.field)
			}
		}
	}
	for _, tc := range []struct {
		calc, key string
		rows      int
		cols      []string // the fields of the key's first table
	}{
		{"open-closed", "case", 4, []string{"attempts", "server_s", "success_share", "in_progress_end"}},
		{"retry-strategies", "strategy", 4, []string{"success_rate", "load"}},
		{"contention", "strategy", 5, []string{"time_ms", "calls"}},
		{"metastable", "sweep_lambda", 11, []string{"sweep_mean_queue", "sweep_p_full", "sweep_drain_s", "sweep_bistable"}},
	} {
		c, ok := calc.New().Lookup(tc.calc)
		if !ok {
			t.Fatal("no calculator " + tc.calc)
		}
		a, err := c.Parse(url.Values{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Run(a)
		if err != nil {
			t.Fatal(err)
		}
		html, err := All().RenderOutput(c, a, res, []string{"table"}, loc)
		if err != nil {
			t.Fatal(err)
		}
		head := `<th scope="col" data-out="` + tc.key + `"`
		i := strings.Index(html, head)
		if i < 0 {
			t.Errorf("%s: no column of %s", tc.calc, tc.key)
			continue
		}
		table := html[i:]
		table = table[:strings.Index(table, "</table>")]
		header := table[:strings.Index(table, "</thead>")]
		var got []string
		for _, m := range regexp.MustCompile(`data-out="([^"]+)"`).FindAllStringSubmatch(header, -1)[1:] {
			got = append(got, m[1])
		}
		if !slices.Equal(got, tc.cols) {
			t.Errorf("%s: columns %v, want %v", tc.calc, got, tc.cols)
		}
		rows := regexp.MustCompile(`<tr data-row="`+tc.key+`\.\d+"><th scope="row">[^<]+</th>((?:<td>[^<]*</td>)*)</tr>`).FindAllStringSubmatch(table, -1)
		if len(rows) != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.calc, len(rows), tc.rows)
		}
		for _, r := range rows {
			cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(r[1], "<td>"), "</td>"), "</td><td>")
			if len(cells) != len(tc.cols) {
				t.Errorf("%s: a row of %d cells, want %d: %s", tc.calc, len(cells), len(tc.cols), r[0])
			}
			for _, cell := range cells {
				if cell == "" || strings.Contains(cell, "; ") || strings.Contains(cell, " e ") {
					t.Errorf("%s: cell %q is not one value", tc.calc, cell)
				}
			}
		}
		if strings.Contains(html, `<td data-out="`+tc.key+`"`) {
			t.Errorf("%s: %s is also a row of its own", tc.calc, tc.key)
		}
	}
}

// TestMetricsHelp: dispatch's Prometheus view has, in every language, a
// HELP line in that language before each TYPE line (they were English on
// every page), and each metric's HELP names it.
func TestMetricsHelp(t *testing.T) {
	c, _ := calc.New().Lookup("dispatch")
	english := []string{"calls sent to", "tokens the providers billed", "time from a job"}
	for lang, loc := range locales(t) {
		html, err := Render(Spec{Calc: c, ID: "w", Views: []string{"metrics"}}, loc)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(html, "\n")
		types := 0
		for i, l := range lines {
			metric, ok := strings.CutPrefix(l, "# TYPE ")
			if !ok {
				continue
			}
			types++
			metric, _, _ = strings.Cut(metric, " ")
			// (the first HELP line follows the <pre> tag on its line)
			if _, h, ok := strings.Cut(lines[max(i-1, 0)], "# HELP "+metric+" "); i == 0 || !ok || h == "" {
				t.Errorf("%s: no HELP line before %q", lang, l)
			}
		}
		if types != 12 {
			t.Errorf("%s: %d metrics, want 12", lang, types)
		}
		for _, en := range english {
			if strings.Contains(html, en) {
				t.Errorf("%s: English HELP text %q", lang, en)
			}
		}
	}
}
