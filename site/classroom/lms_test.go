package classroom

import (
	"encoding/xml"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

func exportClass(t *testing.T) (locale.Locale, []*Variant) {
	t.Helper()
	loc := locale.Locale{Lang: "es", Strings: map[string]string{"classroom.choice.retry": "reintentar"}}
	reg := calc.New()
	var vs []*Variant
	for _, s := range []string{"1", "2", "Ana & <Luis>"} {
		v, err := NewVariant(reg, "3B", s)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	return loc, vs
}

// wantAnswers lists every answer of the variants, recomputed by the
// calculators, in export order.
func wantAnswers(t *testing.T, vs []*Variant) []Answer {
	t.Helper()
	reg := calc.New()
	var out []Answer
	for _, v := range vs {
		for _, it := range v.Items {
			as, err := Answers(reg, it.Exercise, it.Option)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, as...)
		}
	}
	return out
}

// TestMoodleRoundTrip parses the Moodle XML export back: a category per
// student, then one question per answer, each numerical answer equal to
// the calculator's with its tolerance, each choice question with exactly
// the calculator's choice at 100 %.
func TestMoodleRoundTrip(t *testing.T) {
	loc, vs := exportClass(t)
	out, err := Export(loc, "3B", vs, Moodle)
	if err != nil {
		t.Fatal(err)
	}
	var quiz struct {
		Questions []struct {
			Type     string `xml:"type,attr"`
			Category string `xml:"category>text"`
			Name     string `xml:"name>text"`
			Text     string `xml:"questiontext>text"`
			Answers  []struct {
				Fraction  string `xml:"fraction,attr"`
				Text      string `xml:"text"`
				Tolerance string `xml:"tolerance"`
			} `xml:"answer"`
		} `xml:"question"`
	}
	if err := xml.Unmarshal([]byte(out), &quiz); err != nil {
		t.Fatal(err)
	}
	want := wantAnswers(t, vs)
	var cats []string
	i := 0
	for _, q := range quiz.Questions {
		if q.Type == "category" {
			cats = append(cats, q.Category)
			continue
		}
		if i >= len(want) {
			t.Fatalf("more questions than answers (%d)", len(want))
		}
		a := want[i]
		i++
		if q.Text == "" || q.Name == "" {
			t.Errorf("question %d: no text or name", i)
		}
		if a.Choices != nil {
			if q.Type != "multichoice" || len(q.Answers) != len(a.Choices) {
				t.Errorf("question %d: %s with %d answers, want multichoice with %d", i, q.Type, len(q.Answers), len(a.Choices))
				continue
			}
			for k, c := range a.Choices {
				if (q.Answers[k].Fraction == "100") != (c == a.Choice) {
					t.Errorf("question %d: answer %q has fraction %s; the right one is %q", i, q.Answers[k].Text, q.Answers[k].Fraction, a.Choice)
				}
			}
			continue
		}
		if q.Type != "numerical" || len(q.Answers) != 1 {
			t.Errorf("question %d: %s with %d answers", i, q.Type, len(q.Answers))
			continue
		}
		v, err1 := strconv.ParseFloat(q.Answers[0].Text, 64)
		tol, err2 := strconv.ParseFloat(q.Answers[0].Tolerance, 64)
		if err1 != nil || err2 != nil || v != a.Value || tol != a.Tolerance() || q.Answers[0].Fraction != "100" {
			t.Errorf("question %d: %q ± %q, want %v ± %v", i, q.Answers[0].Text, q.Answers[0].Tolerance, a.Value, a.Tolerance())
		}
	}
	if i != len(want) {
		t.Errorf("%d questions, want %d", i, len(want))
	}
	// the class code and the students as the variants normalize them
	wantCats := []string{"$course$/top/retrylab 3b/1", "$course$/top/retrylab 3b/2", "$course$/top/retrylab 3b/ana & <luis>"}
	if fmt.Sprint(cats) != fmt.Sprint(wantCats) {
		t.Errorf("categories %q, want %q", cats, wantCats)
	}
}

// TestQTIRoundTrip parses the QTI 1.2 export back (every item's range is
// the calculator's value ± its tolerance, every choice item's right ident
// the calculator's choice) and checks it against qtiModels, the content
// models and attributes of ims_qtiasiv1p2.dtd for the elements it writes.
func TestQTIRoundTrip(t *testing.T) {
	loc, vs := exportClass(t)
	out, err := Export(loc, "3B", vs, QTI)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkQTI(out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sections []struct {
			Title string `xml:"title,attr"`
			Items []struct {
				LabelIDs []struct {
					ID string `xml:"ident,attr"`
				} `xml:"presentation>response_lid>render_choice>response_label"`
				Gte   string `xml:"resprocessing>respcondition>conditionvar>vargte"`
				Lte   string `xml:"resprocessing>respcondition>conditionvar>varlte"`
				Equal string `xml:"resprocessing>respcondition>conditionvar>varequal"`
			} `xml:"item"`
		} `xml:"assessment>section"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := wantAnswers(t, vs)
	i := 0
	for s, sec := range doc.Sections {
		if sec.Title != vs[s].Student {
			t.Errorf("section %d: %q, want %q", s, sec.Title, vs[s].Student)
		}
		for _, it := range sec.Items {
			a := want[i]
			i++
			if a.Choices != nil {
				k := -1
				for j, c := range a.Choices {
					if c == a.Choice {
						k = j
					}
				}
				if it.Equal != "c"+strconv.Itoa(k) || len(it.LabelIDs) != len(a.Choices) {
					t.Errorf("item %d: right %q of %d, want c%d of %d", i, it.Equal, len(it.LabelIDs), k, len(a.Choices))
				}
				continue
			}
			lo, err1 := strconv.ParseFloat(it.Gte, 64)
			hi, err2 := strconv.ParseFloat(it.Lte, 64)
			if err1 != nil || err2 != nil || lo != a.Value-a.Tolerance() || hi != a.Value+a.Tolerance() {
				t.Errorf("item %d: [%s, %s], want %v ± %v", i, it.Gte, it.Lte, a.Value, a.Tolerance())
			}
		}
	}
	if i != len(want) {
		t.Errorf("%d items, want %d", i, len(want))
	}
}

// qtiModel is the DTD's declaration of one element: its content model as
// a regular expression over the names of its children (each followed by a
// space), its required attributes, and the allowed values of its
// enumerated ones.
type qtiModel struct {
	content  string
	required []string
	enums    map[string][]string
}

// qtiModels transcribes, from IMS QTI ASI 1.2's DTD (ims_qtiasiv1p2.dtd),
// the declarations of the elements the export writes, reduced to what can
// occur (optional children that we never write are kept in the
// expressions where they fit). No DTD validator runs offline here, so the
// test checks these by hand: questestinterop as the DTD declares it
// ((qticomment?, (objectbank | assessment | (section | item)+))), the
// others in the DTD's child order.
var qtiModels = map[string]qtiModel{
	"questestinterop":  {content: `(qticomment )?(objectbank |assessment |((section |item )+))`},
	"assessment":       {content: `(qticomment )?(duration )?(qtimetadata )*(objectives )*(assessmentcontrol )*(rubric )*(presentation_material )?(outcomes_processing )*(assessproc_extension )?(assessfeedback )*(selection_ordering )?(reference )?((sectionref |section )+)`, required: []string{"ident"}},
	"section":          {content: `(qticomment )?(duration )?(qtimetadata )*(objectives )*(sectioncontrol )*(sectionprecondition )*(sectionpostcondition )*(rubric )*(presentation_material )?(outcomes_processing )*(sectionproc_extension )?(sectionfeedback )*(selection_ordering )?(reference )?((itemref |item |sectionref |section )*)`, required: []string{"ident"}},
	"item":             {content: `(qticomment )?(duration )?(itemmetadata )?(objectives )*(itemcontrol )*(itemprecondition )*(itempostcondition )*((itemrubric |rubric )*)(presentation )?(resprocessing )*(itemproc_extension )?(itemfeedback )*(reference )?`, required: []string{"ident"}},
	"itemmetadata":     {content: `(qtimetadata )*`},
	"qtimetadata":      {content: `(vocabulary )?(qtimetadatafield )+`},
	"qtimetadatafield": {content: `fieldlabel fieldentry `},
	"fieldlabel":       {content: ``},
	"fieldentry":       {content: ``},
	"presentation":     {content: `(qticomment )?(flow |(material |response_lid |response_xy |response_str |response_num |response_grp |response_extension )+)`},
	"material":         {content: `(qticomment )?((mattext |matemtext |matimage |mataudio |matvideo |matapplet |matapplication |matref |matbreak |mat_extension )+)(altmaterial )*`},
	"mattext":          {content: ``, enums: map[string][]string{}},
	"response_lid":     {content: `(material )?(render_choice |render_hotspot |render_slider |render_fib |render_extension )(material )?`, required: []string{"ident"}, enums: map[string][]string{"rcardinality": {"Single", "Multiple", "Ordered"}}},
	"response_num":     {content: `(material )?(render_choice |render_hotspot |render_slider |render_fib |render_extension )(material )?`, required: []string{"ident"}, enums: map[string][]string{"rcardinality": {"Single", "Multiple", "Ordered"}}},
	"render_choice":    {content: `((material |material_ref |response_label |flow_label )*)(response_na )?`},
	"render_fib":       {content: `((material |material_ref |response_label |flow_label )*)(response_na )?`, enums: map[string][]string{"fibtype": {"String", "Integer", "Decimal", "Scientific"}}},
	"response_label":   {content: `((qticomment |material |material_ref |flow_mat )*)`, required: []string{"ident"}},
	"resprocessing":    {content: `(qticomment )?outcomes ((respcondition |itemproc_extension )+)`},
	"outcomes":         {content: `(qticomment )?((decvar |interpretvar )+)`},
	"decvar":           {content: ``, enums: map[string][]string{"vartype": {"Integer", "String", "Decimal", "Scientific", "Boolean", "Enumerated", "Set"}}},
	"respcondition":    {content: `(qticomment )?conditionvar (setvar )*(displayfeedback )*(respcond_extension )?`, enums: map[string][]string{"continue": {"Yes", "No"}}},
	"conditionvar":     {content: `((not |and |or |unanswered |other |varequal |varlt |varlte |vargt |vargte |varsubset |varinside |varsubstring |durequal |durlt |durlte |durgt |durgte |var_extension )+)`},
	"varequal":         {content: ``, required: []string{"respident"}},
	"vargte":           {content: ``, required: []string{"respident"}},
	"varlte":           {content: ``, required: []string{"respident"}},
	"setvar":           {content: ``, enums: map[string][]string{"action": {"Set", "Add", "Subtract", "Multiply", "Divide"}}},
}

// checkQTI checks every element of doc against qtiModels: a known
// element, its children in its content model, its required attributes,
// its enumerated values.
func checkQTI(doc string) error {
	type frame struct {
		name     string
		children []string
	}
	d := xml.NewDecoder(strings.NewReader(doc))
	var stack []*frame
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return nil
			}
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			m, ok := qtiModels[t.Name.Local]
			if !ok {
				return fmt.Errorf("element %s: not one the export may write", t.Name.Local)
			}
			have := map[string]string{}
			for _, a := range t.Attr {
				have[a.Name.Local] = a.Value
			}
			for _, r := range m.required {
				if have[r] == "" {
					return fmt.Errorf("element %s: no %s (#REQUIRED)", t.Name.Local, r)
				}
			}
			for k, vals := range m.enums {
				if v, ok := have[k]; ok && !strings.Contains(" "+strings.Join(vals, " ")+" ", " "+v+" ") {
					return fmt.Errorf("element %s: %s=%q is not one of %v", t.Name.Local, k, v, vals)
				}
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, t.Name.Local)
			} else if t.Name.Local != "questestinterop" {
				return fmt.Errorf("root %s, want questestinterop", t.Name.Local)
			}
			stack = append(stack, &frame{name: t.Name.Local})
		case xml.EndElement:
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			seq := ""
			for _, c := range f.children {
				seq += c + " "
			}
			if !regexp.MustCompile(`^(?:` + qtiModels[f.name].content + `)$`).MatchString(seq) {
				return fmt.Errorf("element %s: children %q do not match the DTD's (%s)", f.name, seq, qtiModels[f.name].content)
			}
		}
	}
}

// TestCheckQTIRefuses: the check fails a document that breaks the DTD.
func TestCheckQTIRefuses(t *testing.T) {
	for _, doc := range []string{
		`<questestinterop><item/></questestinterop>`,
		`<questestinterop><assessment ident="a"></assessment></questestinterop>`,
		`<questestinterop><assessment ident="a"><section ident="s"><item ident="i"><resprocessing><respcondition><conditionvar><vargte respident="r">1</vargte></conditionvar></respcondition></resprocessing></item></section></assessment></questestinterop>`,
		`<questestinterop><item ident="i"><presentation><response_num ident="r" rcardinality="One"><render_fib/></response_num></presentation></item></questestinterop>`,
		`<quiz/>`,
	} {
		if err := checkQTI(doc); err == nil {
			t.Errorf("accepted %s", doc)
		}
	}
	if err := checkQTI(`<questestinterop><item ident="i"><presentation><response_num ident="r" rcardinality="Single"><render_fib fibtype="Decimal"><response_label ident="a"/></render_fib></response_num></presentation></item></questestinterop>`); err != nil {
		t.Errorf("refused a valid document: %v", err)
	}
}
