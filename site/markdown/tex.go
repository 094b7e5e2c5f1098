package markdown

import (
	"fmt"
	"html"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// TeXToMathML converts a TeX formula of the subset the articles use into a
// MathML <math> element. display selects block layout (limits above and
// below big operators) instead of inline layout. The subset: numbers,
// letters, operators, groups {…}, sub/superscripts, \frac, \dfrac, \tfrac,
// \binom, \sqrt, \sum, \prod, \int, \min, \max, \lim, \log and the other
// function names, Greek letters, relations (\le, \ge, \ne, \approx, …),
// arrows, \cdot, \times, \left…\right, \text, \mathrm, \mathbf, \mathbb,
// \operatorname and spacing (\, \; \quad). Anything else is an error that
// names the command, so a typo never renders as silently wrong maths.
func TeXToMathML(tex string, display bool) (string, error) {
	p := &texParser{src: tex, display: display}
	body, err := p.parseSeq("")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(`<math`)
	if display {
		b.WriteString(` display="block" tabindex="0"`) // it scrolls in its own box: the keyboard must reach it
	}
	b.WriteString(`><semantics>`)
	b.WriteString(wrapRow(body))
	b.WriteString(`<annotation encoding="application/x-tex">`)
	b.WriteString(html.EscapeString(strings.TrimSpace(tex)))
	b.WriteString(`</annotation></semantics></math>`)
	return b.String(), nil
}

// TeXError is a TeX syntax error at byte offset Pos of the formula.
type TeXError struct {
	Pos int
	Msg string
}

func (e *TeXError) Error() string { return "TeX: " + e.Msg }

type texParser struct {
	src     string
	pos     int
	display bool
	depth   int
}

func (p *texParser) errf(format string, args ...any) error {
	return &TeXError{Pos: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *texParser) skipSpace() {
	for p.pos < len(p.src) {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		if !unicode.IsSpace(r) {
			return
		}
		p.pos += n
	}
}

// peekCommand returns the control sequence at pos (without the backslash)
// or "" when pos is not at a backslash.
func (p *texParser) peekCommand() string {
	if p.pos >= len(p.src) || p.src[p.pos] != '\\' {
		return ""
	}
	i := p.pos + 1
	for i < len(p.src) && isASCIILetter(p.src[i]) {
		i++
	}
	if i == p.pos+1 && i < len(p.src) {
		_, n := utf8.DecodeRuneInString(p.src[i:])
		i += n
	}
	return p.src[p.pos+1 : i]
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }

// parseSeq parses atoms with their scripts until end, a '}' (when close is
// "}"), or \right (close "right"). It does not consume the terminator.
func (p *texParser) parseSeq(close string) ([]string, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 50 {
		return nil, p.errf("formula nested too deeply")
	}
	var items []string
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			if close == "}" {
				return nil, p.errf("missing }")
			}
			if close == "right" {
				return nil, p.errf(`\left without \right`)
			}
			return items, nil
		}
		c := p.src[p.pos]
		if c == '}' {
			if close != "}" {
				return nil, p.errf("unexpected }")
			}
			return items, nil
		}
		if p.peekCommand() == "right" {
			if close != "right" {
				return nil, p.errf(`\right without \left`)
			}
			return items, nil
		}
		if c == '^' || c == '_' {
			return nil, p.errf("%c with nothing before it", c)
		}
		atom, limits, err := p.parseAtom()
		if err != nil {
			return nil, err
		}
		if atom == "" {
			continue
		}
		atom, err = p.parseScripts(atom, limits)
		if err != nil {
			return nil, err
		}
		items = append(items, atom)
	}
}

// parseScripts attaches the ^ and _ that follow base.
func (p *texParser) parseScripts(base string, limits bool) (string, error) {
	var sub, sup string
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			break
		}
		c := p.src[p.pos]
		if c == '\'' && sup == "" {
			n := 0
			for p.pos < len(p.src) && p.src[p.pos] == '\'' {
				n++
				p.pos++
			}
			sup = "<mo>" + strings.Repeat("′", n) + "</mo>"
			continue
		}
		if c != '^' && c != '_' {
			break
		}
		p.pos++
		arg, err := p.parseArg()
		if err != nil {
			return "", err
		}
		if c == '^' {
			if sup != "" {
				return "", p.errf("double superscript")
			}
			sup = arg
		} else {
			if sub != "" {
				return "", p.errf("double subscript")
			}
			sub = arg
		}
	}
	under, over, both := "msub", "msup", "msubsup"
	if limits && p.display {
		under, over, both = "munder", "mover", "munderover"
	}
	switch {
	case sub != "" && sup != "":
		return "<" + both + ">" + base + sub + sup + "</" + both + ">", nil
	case sub != "":
		return "<" + under + ">" + base + sub + "</" + under + ">", nil
	case sup != "":
		return "<" + over + ">" + base + sup + "</" + over + ">", nil
	}
	return base, nil
}

// parseArg parses one argument: a {group} or a single token.
func (p *texParser) parseArg() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return "", p.errf("missing argument")
	}
	if p.src[p.pos] == '{' {
		return p.parseGroup()
	}
	if p.src[p.pos] == '}' || p.src[p.pos] == '^' || p.src[p.pos] == '_' {
		return "", p.errf("missing argument")
	}
	if isDigit(p.src[p.pos]) { // a single digit, as TeX does: x^23 is x² 3
		p.pos++
		return "<mn>" + p.src[p.pos-1:p.pos] + "</mn>", nil
	}
	atom, _, err := p.parseAtom()
	if err != nil {
		return "", err
	}
	if atom == "" {
		return "", p.errf("missing argument")
	}
	return atom, nil
}

// parseGroup parses {…} into one mrow (or a single element).
func (p *texParser) parseGroup() (string, error) {
	p.pos++ // {
	items, err := p.parseSeq("}")
	if err != nil {
		return "", err
	}
	p.pos++ // }
	return wrapRow(items), nil
}

// parseTextArg reads a {…} argument verbatim (for \text).
func (p *texParser) parseTextArg() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '{' {
		return "", p.errf("expected {")
	}
	depth := 0
	start := p.pos + 1
	for i := p.pos; i < len(p.src); i++ {
		switch p.src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				p.pos = i + 1
				return p.src[start:i], nil
			}
		}
	}
	return "", p.errf("missing }")
}

func wrapRow(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return "<mrow>" + strings.Join(items, "") + "</mrow>"
}

// parseAtom parses one atom. limits reports that scripts go above and
// below it in display style. An empty atom (a space command) is skipped.
func (p *texParser) parseAtom() (atom string, limits bool, err error) {
	c := p.src[p.pos]
	switch {
	case c == '{':
		g, err := p.parseGroup()
		return g, false, err
	case isDigit(c) || c == '.' && p.pos+1 < len(p.src) && isDigit(p.src[p.pos+1]):
		return p.parseNumber(), false, nil
	case isASCIILetter(c):
		p.pos++
		return "<mi>" + string(c) + "</mi>", false, nil
	case c == '\\':
		return p.parseCommand()
	case c == '&' || c == '#' || c == '%' || c == '~' || c == '$':
		return "", false, p.errf("unsupported character %q", c)
	}
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	if unicode.IsLetter(r) {
		return "<mi>" + html.EscapeString(string(r)) + "</mi>", false, nil
	}
	s := string(r)
	switch s {
	case "-":
		s = "−"
	case "*":
		s = "∗"
	}
	return "<mo>" + html.EscapeString(s) + "</mo>", false, nil
}

// parseNumber reads digits with decimal separators: 0.5, 1{,}5 (a comma
// written as {,} is part of the number, as in Italian typesetting).
func (p *texParser) parseNumber() string {
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case isDigit(c):
			b.WriteByte(c)
			p.pos++
			continue
		case c == '.' && p.pos+1 < len(p.src) && isDigit(p.src[p.pos+1]):
			b.WriteByte(c)
			p.pos++
			continue
		case strings.HasPrefix(p.src[p.pos:], "{,}") && p.pos+3 < len(p.src) && isDigit(p.src[p.pos+3]):
			b.WriteByte(',')
			p.pos += 3
			continue
		}
		break
	}
	return "<mn>" + b.String() + "</mn>"
}

// The tables of TeX commands, built on first use (loadTex), not when the
// program starts.
var (
	texOnce                                sync.Once
	texGreek, texOps, texBigOps, texSpaces map[string]string
	// texFuncs are upright function names; the true ones take limits.
	texFuncs map[string]bool
)

func loadTex() {
	texGreek = map[string]string{
		"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε",
		"zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
		"lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
		"varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ",
		"varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
		"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
		"Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
		"ell": "ℓ", "infty": "∞", "partial": "∂", "nabla": "∇", "emptyset": "∅",
	}

	texOps = map[string]string{
		"cdot": "⋅", "times": "×", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗", "circ": "∘",
		"le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈",
		"sim": "∼", "simeq": "≃", "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫",
		"in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩",
		"to": "→", "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒", "Leftarrow": "⇐",
		"iff": "⟺", "implies": "⟹", "mapsto": "↦", "mid": "∣", "vert": "|", "Vert": "‖",
		"lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "langle": "⟨", "rangle": "⟩",
		"ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "forall": "∀", "exists": "∃",
		"neg": "¬", "land": "∧", "lor": "∨", "wedge": "∧", "vee": "∨", "setminus": "∖",
		"{": "{", "}": "}", "|": "‖", "%": "%", "_": "_", "#": "#", "&": "&", "$": "$",
	}

	// texFuncs are upright function names; the true ones take limits.
	texFuncs = map[string]bool{
		"min": true, "max": true, "lim": true, "sup": true, "inf": true, "argmin": true, "argmax": true,
		"log": false, "ln": false, "exp": false, "sin": false, "cos": false, "tan": false,
		"Pr": false, "det": false, "gcd": false, "deg": false, "dim": false, "ker": false, "arg": false,
	}

	texBigOps = map[string]string{"sum": "∑", "prod": "∏", "int": "∫", "bigcup": "⋃", "bigcap": "⋂", "coprod": "∐"}

	texSpaces = map[string]string{
		",": "0.1667em", ":": "0.2222em", ">": "0.2222em", ";": "0.2778em", " ": "0.25em",
		"quad": "1em", "qquad": "2em", "!": "-0.1667em", "enspace": "0.5em",
	}
}

func (p *texParser) parseCommand() (string, bool, error) {
	start := p.pos
	name := p.peekCommand()
	if name == "" {
		return "", false, p.errf(`lone \ at the end`)
	}
	p.pos += 1 + len(name)
	texOnce.Do(loadTex)
	if s, ok := texGreek[name]; ok {
		attr := ""
		if unicode.IsUpper([]rune(s)[0]) {
			attr = ` mathvariant="normal"`
		}
		return "<mi" + attr + ">" + s + "</mi>", false, nil
	}
	if s, ok := texOps[name]; ok {
		return "<mo>" + html.EscapeString(s) + "</mo>", false, nil
	}
	if lim, ok := texFuncs[name]; ok {
		fn := name
		switch name {
		case "argmin":
			fn = "arg min"
		case "argmax":
			fn = "arg max"
		}
		return "<mi>" + fn + "</mi>", lim, nil
	}
	if s, ok := texBigOps[name]; ok {
		return `<mo largeop="true" movablelimits="true">` + s + "</mo>", true, nil
	}
	if w, ok := texSpaces[name]; ok {
		return `<mspace width="` + w + `"></mspace>`, false, nil
	}
	switch name {
	case "frac", "dfrac", "tfrac":
		num, err := p.parseArg()
		if err != nil {
			return "", false, err
		}
		den, err := p.parseArg()
		if err != nil {
			return "", false, err
		}
		return "<mfrac>" + num + den + "</mfrac>", false, nil
	case "binom":
		n, err := p.parseArg()
		if err != nil {
			return "", false, err
		}
		k, err := p.parseArg()
		if err != nil {
			return "", false, err
		}
		return `<mrow><mo>(</mo><mfrac linethickness="0">` + n + k + `</mfrac><mo>)</mo></mrow>`, false, nil
	case "sqrt":
		p.skipSpace()
		index := ""
		if p.pos < len(p.src) && p.src[p.pos] == '[' {
			end := strings.IndexByte(p.src[p.pos:], ']')
			if end < 0 {
				return "", false, p.errf(`\sqrt[ without ]`)
			}
			sub := &texParser{src: p.src[p.pos+1 : p.pos+end], display: p.display, depth: p.depth}
			items, err := sub.parseSeq("")
			if err != nil {
				return "", false, err
			}
			index = wrapRow(items)
			p.pos += end + 1
		}
		arg, err := p.parseArg()
		if err != nil {
			return "", false, err
		}
		if index != "" {
			return "<mroot>" + arg + index + "</mroot>", false, nil
		}
		return "<msqrt>" + arg + "</msqrt>", false, nil
	case "text", "textrm", "mbox", "textit":
		t, err := p.parseTextArg()
		if err != nil {
			return "", false, err
		}
		return "<mtext>" + html.EscapeString(t) + "</mtext>", false, nil
	case "mathrm", "operatorname":
		t, err := p.parseTextArg()
		if err != nil {
			return "", false, err
		}
		return "<mi>" + html.EscapeString(strings.TrimSpace(t)) + "</mi>", false, nil
	case "mathbf", "mathbb", "mathcal":
		t, err := p.parseTextArg()
		if err != nil {
			return "", false, err
		}
		s, err := styled(name, strings.TrimSpace(t))
		if err != nil {
			return "", false, p.errf("%v", err)
		}
		return "<mi>" + s + "</mi>", false, nil
	case "left":
		open, err := p.parseDelim()
		if err != nil {
			return "", false, err
		}
		items, err := p.parseSeq("right")
		if err != nil {
			return "", false, err
		}
		p.pos += len(`\right`)
		closeD, err := p.parseDelim()
		if err != nil {
			return "", false, err
		}
		return "<mrow>" + open + strings.Join(items, "") + closeD + "</mrow>", false, nil
	case "right":
		return "", false, p.errf(`\right without \left`)
	case "displaystyle", "textstyle", "limits", "nolimits":
		return "", false, nil
	}
	p.pos = start
	return "", false, p.errf(`unknown command \%s`, name)
}

// parseDelim reads the delimiter after \left or \right ("." is none).
func (p *texParser) parseDelim() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return "", p.errf("missing delimiter")
	}
	var d string
	if p.src[p.pos] == '\\' {
		name := p.peekCommand()
		texOnce.Do(loadTex)
		s, ok := texOps[name]
		if !ok {
			return "", p.errf(`unknown delimiter \%s`, name)
		}
		p.pos += 1 + len(name)
		d = s
	} else {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		p.pos += n
		d = string(r)
		if !strings.ContainsRune("()[]|./", r) {
			return "", p.errf("bad delimiter %q", d)
		}
	}
	if d == "." {
		return "", nil
	}
	return `<mo fence="true" stretchy="true">` + html.EscapeString(d) + "</mo>", nil
}

// styled maps ASCII letters and digits to the Mathematical Alphanumeric
// Symbols (MathML Core renders mathvariant only as "normal").
func styled(style, s string) (string, error) {
	var b strings.Builder
	for _, r := range s {
		switch style {
		case "mathbb":
			if x, ok := map[rune]rune{'C': 'ℂ', 'H': 'ℍ', 'N': 'ℕ', 'P': 'ℙ', 'Q': 'ℚ', 'R': 'ℝ', 'Z': 'ℤ'}[r]; ok {
				b.WriteRune(x)
				continue
			}
			switch {
			case r >= 'A' && r <= 'Z':
				b.WriteRune(0x1D538 + r - 'A')
			case r >= 'a' && r <= 'z':
				b.WriteRune(0x1D552 + r - 'a')
			case r >= '0' && r <= '9':
				b.WriteRune(0x1D7D8 + r - '0')
			default:
				return "", fmt.Errorf(`\%s of %q`, style, r)
			}
		case "mathbf":
			switch {
			case r >= 'A' && r <= 'Z':
				b.WriteRune(0x1D400 + r - 'A')
			case r >= 'a' && r <= 'z':
				b.WriteRune(0x1D41A + r - 'a')
			case r >= '0' && r <= '9':
				b.WriteRune(0x1D7CE + r - '0')
			default:
				return "", fmt.Errorf(`\%s of %q`, style, r)
			}
		case "mathcal":
			if x, ok := map[rune]rune{'B': 'ℬ', 'E': 'ℰ', 'F': 'ℱ', 'H': 'ℋ', 'I': 'ℐ', 'L': 'ℒ', 'M': 'ℳ', 'R': 'ℛ'}[r]; ok {
				b.WriteRune(x)
				continue
			}
			if r >= 'A' && r <= 'Z' {
				b.WriteRune(0x1D49C + r - 'A')
				continue
			}
			return "", fmt.Errorf(`\%s of %q`, style, r)
		}
	}
	return b.String(), nil
}
