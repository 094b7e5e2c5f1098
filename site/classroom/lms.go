package classroom

import (
	"encoding/xml"
	"fmt"
	"html"
	"strconv"
	"strings"

	"retrylab/site/locale"
)

// Exports of a class's variants with their answer keys for learning
// platforms (issue 34), in the class's language:
//
//   - Moodle XML (https://docs.moodle.org/en/Moodle_XML_format): one
//     category per student ($course$/top/retrylab CODE/STUDENT), a
//     "numerical" question per numeric answer with its tolerance as
//     Moodle's absolute tolerance, a "multichoice" question (one answer) per
//     choice;
//   - QTI 1.2 (IMS Question and Test Interoperability, ASI 1.2, which Canvas
//     and Blackboard import): one assessment, a section per student, an
//     item per answer: response_num with render_fib (Decimal) and a
//     respcondition on the range [value − tolerance, value + tolerance]
//     (vargte, varlte), or response_lid with render_choice and varequal.
//
// Each question holds the exercise's statement with its parameters and
// the question; the answers are the calculators' (NewVariant).

// LMS formats of Export.
const (
	Moodle Format = "moodle"
	QTI    Format = "qti"
)

// exportItem is one question of the export: one answer of one item.
type exportItem struct {
	student, name, text string
	a                   Answer
	choices             []string // localized, for a choice
}

func exportItems(loc locale.Locale, vs []*Variant) []exportItem {
	var out []exportItem
	for _, v := range vs {
		for i, it := range v.Items {
			for _, a := range it.Answers {
				q := QuestionText(loc, it.Exercise, a.Question)
				e := exportItem{student: v.Student, a: a,
					name: fmt.Sprintf("%s · %d. %s", v.Student, i+1, q),
					text: "<p>" + html.EscapeString(Statement(loc, it)) + "</p><p>" + html.EscapeString(q) + "</p>"}
				if a.Percent {
					e.text += "<p>(%)</p>"
				}
				for _, c := range a.Choices {
					e.choices = append(e.choices, loc.TOr("classroom.choice."+c, c))
				}
				out = append(out, e)
			}
		}
	}
	return out
}

// number writes x for a platform: a point, no exponent, no excess digits.
func number(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// Export writes the variants vs of class code, with their answers, as
// Moodle XML or QTI 1.2, in loc's language.
func Export(loc locale.Locale, code string, vs []*Variant, f Format) (string, error) {
	items := exportItems(loc, vs)
	var b strings.Builder
	b.WriteString(xml.Header)
	esc := func(s string) string {
		var w strings.Builder
		xml.EscapeText(&w, []byte(s))
		return w.String()
	}
	cdata := func(s string) string { return "<![CDATA[" + strings.ReplaceAll(s, "]]>", "]]]]><![CDATA[>") + "]]>" }
	class := Normalize(code)
	switch f {
	case Moodle:
		b.WriteString("<quiz>\n")
		last := ""
		for _, e := range items {
			if e.student != last || last == "" {
				last = e.student
				fmt.Fprintf(&b, "<question type=\"category\"><category><text>%s</text></category></question>\n",
					esc("$course$/top/retrylab "+class+"/"+e.student))
			}
			if e.a.Choices != nil {
				b.WriteString("<question type=\"multichoice\">\n")
			} else {
				b.WriteString("<question type=\"numerical\">\n")
			}
			fmt.Fprintf(&b, "<name><text>%s</text></name>\n", esc(e.name))
			fmt.Fprintf(&b, "<questiontext format=\"html\"><text>%s</text></questiontext>\n", cdata(e.text))
			b.WriteString("<defaultgrade>1</defaultgrade>\n")
			if e.a.Choices != nil {
				b.WriteString("<single>true</single><shuffleanswers>false</shuffleanswers><answernumbering>abc</answernumbering>\n")
				for i, c := range e.a.Choices {
					fr := "0"
					if c == e.a.Choice {
						fr = "100"
					}
					fmt.Fprintf(&b, "<answer fraction=\"%s\" format=\"plain_text\"><text>%s</text></answer>\n", fr, esc(e.choices[i]))
				}
			} else {
				fmt.Fprintf(&b, "<answer fraction=\"100\"><text>%s</text><tolerance>%s</tolerance></answer>\n", number(e.a.Value), number(e.a.Tolerance()))
			}
			b.WriteString("</question>\n")
		}
		b.WriteString("</quiz>\n")
	case QTI:
		b.WriteString(`<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">` + "\n")
		fmt.Fprintf(&b, "<assessment ident=\"retrylab-%s\" title=\"%s\">\n", ident(class), esc("retrylab "+class))
		last, n := "", 0
		for _, e := range items {
			if e.student != last || last == "" {
				if last != "" {
					b.WriteString("</section>\n")
				}
				last = e.student
				fmt.Fprintf(&b, "<section ident=\"s-%s\" title=\"%s\">\n", ident(e.student), esc(e.student))
			}
			n++
			kind := "numerical_question"
			if e.a.Choices != nil {
				kind = "multiple_choice_question"
			}
			fmt.Fprintf(&b, "<item ident=\"q%d\" title=\"%s\">\n", n, esc(e.name))
			fmt.Fprintf(&b, "<itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>%s</fieldentry></qtimetadatafield>"+
				"<qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>1</fieldentry></qtimetadatafield></qtimetadata></itemmetadata>\n", kind)
			fmt.Fprintf(&b, "<presentation><material><mattext texttype=\"text/html\">%s</mattext></material>\n", esc(e.text))
			if e.a.Choices != nil {
				b.WriteString("<response_lid ident=\"response1\" rcardinality=\"Single\"><render_choice>\n")
				for i, c := range e.choices {
					fmt.Fprintf(&b, "<response_label ident=\"c%d\"><material><mattext texttype=\"text/plain\">%s</mattext></material></response_label>\n", i, esc(c))
				}
				b.WriteString("</render_choice></response_lid>\n</presentation>\n")
				right := 0
				for i, c := range e.a.Choices {
					if c == e.a.Choice {
						right = i
					}
				}
				fmt.Fprintf(&b, "<resprocessing><outcomes><decvar maxvalue=\"100\" minvalue=\"0\" varname=\"SCORE\" vartype=\"Decimal\"/></outcomes>"+
					"<respcondition continue=\"No\"><conditionvar><varequal respident=\"response1\">c%d</varequal></conditionvar><setvar action=\"Set\" varname=\"SCORE\">100</setvar></respcondition></resprocessing>\n", right)
			} else {
				b.WriteString("<response_num ident=\"response1\" rcardinality=\"Single\"><render_fib fibtype=\"Decimal\"><response_label ident=\"answer1\"/></render_fib></response_num>\n</presentation>\n")
				tol := e.a.Tolerance()
				fmt.Fprintf(&b, "<resprocessing><outcomes><decvar maxvalue=\"100\" minvalue=\"0\" varname=\"SCORE\" vartype=\"Decimal\"/></outcomes>"+
					"<respcondition continue=\"No\"><conditionvar><vargte respident=\"response1\">%s</vargte><varlte respident=\"response1\">%s</varlte></conditionvar>"+
					"<setvar action=\"Set\" varname=\"SCORE\">100</setvar></respcondition></resprocessing>\n", number(e.a.Value-tol), number(e.a.Value+tol))
			}
			b.WriteString("</item>\n")
		}
		if last != "" {
			b.WriteString("</section>\n")
		}
		b.WriteString("</assessment>\n</questestinterop>\n")
	default:
		return "", fmt.Errorf("classroom: no export format %q (moodle, qti)", f)
	}
	return b.String(), nil
}

// ident makes s an identifier of letters, digits, '-' and '_' (QTI idents
// are CDATA, but platforms use them in paths): other runes become their
// code in hex.
func ident(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "_%x", r)
		}
	}
	return b.String()
}
