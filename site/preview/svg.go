package preview

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// style is the computed presentation of an element: what it inherits
// from its ancestors, its own attributes, then the style sheet's rules
// (which win over presentation attributes, as in CSS).
type style struct {
	fill, stroke         string // "none", "currentColor" or #hex
	fillOp, strokeOp, op float64
	strokeW              float64
	dash                 []float64
	anchor, weight       string
	fontSize             float64
	classes              []string // the element's own
	ancestors            [][]string
	current              string // currentColor
	transform, dy, dx    string
	tx, ty               float64 // a text's x and y
}

// rule is one declaration block of the style element: selectors of one
// class or tag, or an ancestor class then a class or tag.
type rule struct {
	selectors [][]string // each: compound parts, the last the element's
	decls     map[string]string
}

// parseCSS reads the rules of the style element before its first
// @media (the light scheme).
func parseCSS(css string) []rule {
	if i := strings.Index(css, "@media"); i >= 0 {
		css = css[:i]
	}
	var out []rule
	for {
		i := strings.IndexByte(css, '{')
		j := strings.IndexByte(css, '}')
		if i < 0 || j < i {
			return out
		}
		r := rule{decls: map[string]string{}}
		for _, sel := range strings.Split(css[:i], ",") {
			r.selectors = append(r.selectors, strings.Fields(sel))
		}
		for _, d := range strings.Split(css[i+1:j], ";") {
			if k, v, ok := strings.Cut(d, ":"); ok {
				r.decls[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		out = append(out, r)
		css = css[j+1:]
	}
}

// matches reports whether simple selector part (".class" or "tag")
// matches an element of tag with classes.
func matches(part, tag string, classes []string) bool {
	if c, ok := strings.CutPrefix(part, "."); ok {
		for _, k := range classes {
			if k == c {
				return true
			}
		}
		return false
	}
	return part == tag
}

func (r rule) applies(tag string, s *style) bool {
	for _, sel := range r.selectors {
		if len(sel) == 0 || !matches(sel[len(sel)-1], tag, s.classes) {
			continue
		}
		ok := true
		if len(sel) == 2 {
			ok = false
			for _, a := range s.ancestors {
				if matches(sel[0], "", a) {
					ok = true
				}
			}
		} else if len(sel) > 2 {
			ok = false
		}
		if ok {
			return true
		}
	}
	return false
}

// canvas maps the chart's user units to the image.
type canvas struct {
	dst     *image.RGBA
	scale   float64
	ox, oy  float64
	font    *opentype.Font
	Skipped []string // elements outside the subset, left out
	rules   []rule
	faces   map[float64]font.Face
}

func (c *canvas) pt(x, y float64) (float32, float32) {
	return float32(c.ox + x*c.scale), float32(c.oy + y*c.scale)
}

// drawSVG draws the standalone chart svg into r of dst, scaled to fit,
// centred horizontally; text in f.
func drawSVG(dst *image.RGBA, svg []byte, r image.Rectangle, f *opentype.Font) error {
	_, err := render(dst, svg, r, f)
	return err
}

// render is drawSVG returning the elements it left out.
func render(dst *image.RGBA, svg []byte, r image.Rectangle, f *opentype.Font) ([]string, error) {
	// The style element first: its rules apply to every element.
	var css string
	if i := bytes.Index(svg, []byte("<style>")); i >= 0 {
		if j := bytes.Index(svg[i:], []byte("</style>")); j > 0 {
			css = string(svg[i+len("<style>") : i+j])
		}
	}
	c := &canvas{dst: dst, font: f, rules: parseCSS(css), faces: map[float64]font.Face{}}
	defer func() {
		for _, fc := range c.faces {
			fc.Close()
		}
	}()
	d := xml.NewDecoder(bytes.NewReader(svg))
	stack := []*style{{fill: "#000", stroke: "none", fillOp: 1, strokeOp: 1, op: 1, strokeW: 1, fontSize: 16, current: "#000"}}
	type open struct {
		tag  string
		text strings.Builder
		skip bool
	}
	var opens []*open
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			return nil, fmt.Errorf("preview: the chart is not well-formed: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			parent := stack[len(stack)-1]
			tag := t.Name.Local
			skip := len(opens) > 0 && opens[len(opens)-1].skip
			o := &open{tag: tag, skip: skip}
			s := c.inherit(parent, tag, t.Attr)
			if !skip {
				switch tag {
				case "svg":
					if err := c.viewBox(t.Attr, r); err != nil {
						return nil, err
					}
					if s.current != "" {
						parent.current = s.current
					}
				case "g":
				case "title", "desc", "style":
					o.skip = true
				case "rect":
					c.rect(s, t.Attr)
				case "line":
					c.line(s, t.Attr)
				case "polyline":
					c.polyline(s, t.Attr)
				case "circle":
					c.circle(s, t.Attr)
				case "text":
				default:
					c.Skipped = append(c.Skipped, tag)
					o.skip = true
				}
			}
			stack = append(stack, s)
			opens = append(opens, o)
		case xml.CharData:
			if len(opens) > 0 {
				opens[len(opens)-1].text.Write(t)
			}
		case xml.EndElement:
			o := opens[len(opens)-1]
			s := stack[len(stack)-1]
			if o.tag == "text" && !o.skip {
				if err := c.text(s, strings.TrimSpace(o.text.String())); err != nil {
					return nil, err
				}
			}
			opens = opens[:len(opens)-1]
			stack = stack[:len(stack)-1]
		}
	}
	return c.Skipped, nil
}

func attr(as []xml.Attr, name string) (string, bool) {
	for _, a := range as {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

func num(as []xml.Attr, name string) float64 {
	v, _ := attr(as, name)
	f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
	return f
}

// inherit computes an element's style.
func (c *canvas) inherit(p *style, tag string, as []xml.Attr) *style {
	s := *p
	s.op, s.transform, s.dy, s.dx, s.tx, s.ty = 1, "", "", "", 0, 0
	s.ancestors = append(append([][]string(nil), p.ancestors...), p.classes)
	s.classes = nil
	if v, ok := attr(as, "class"); ok {
		s.classes = strings.Fields(v)
	}
	set := func(k, v string) {
		switch k {
		case "fill":
			s.fill = v
		case "stroke":
			s.stroke = v
		case "fill-opacity":
			s.fillOp, _ = strconv.ParseFloat(v, 64)
		case "stroke-opacity":
			s.strokeOp, _ = strconv.ParseFloat(v, 64)
		case "opacity":
			s.op, _ = strconv.ParseFloat(v, 64)
		case "stroke-width":
			s.strokeW, _ = strconv.ParseFloat(v, 64)
		case "stroke-dasharray":
			s.dash = nil
			for _, f := range strings.Fields(strings.ReplaceAll(v, ",", " ")) {
				x, _ := strconv.ParseFloat(f, 64)
				s.dash = append(s.dash, x)
			}
		case "text-anchor":
			s.anchor = v
		case "font-weight":
			s.weight = v
		case "font-size":
			s.fontSize, _ = strconv.ParseFloat(strings.TrimSuffix(v, "px"), 64)
		case "color":
			s.current = v
		case "transform":
			s.transform = v
		case "dy":
			s.dy = v
		case "dx":
			s.dx = v
		case "x":
			s.tx, _ = strconv.ParseFloat(v, 64)
		case "y":
			s.ty, _ = strconv.ParseFloat(v, 64)
		}
	}
	for _, a := range as {
		if a.Name.Space == "" {
			set(a.Name.Local, a.Value)
		}
	}
	for _, r := range c.rules {
		if r.applies(tag, &s) {
			for k, v := range r.decls {
				set(k, v)
			}
		}
	}
	return &s
}

func (c *canvas) viewBox(as []xml.Attr, r image.Rectangle) error {
	vb, _ := attr(as, "viewBox")
	f := strings.Fields(vb)
	if len(f) != 4 {
		return fmt.Errorf("preview: the chart has no viewBox")
	}
	w, _ := strconv.ParseFloat(f[2], 64)
	h, _ := strconv.ParseFloat(f[3], 64)
	if w <= 0 || h <= 0 {
		return fmt.Errorf("preview: the chart's viewBox %q is empty", vb)
	}
	c.scale = math.Min(float64(r.Dx())/w, float64(r.Dy())/h)
	c.ox = float64(r.Min.X) + (float64(r.Dx())-w*c.scale)/2
	c.oy = float64(r.Min.Y)
	return nil
}

// colour resolves a paint with an opacity; ok is false for none.
func colour(paint, current string, op float64) (color.Color, bool) {
	if paint == "currentColor" {
		paint = current
	}
	if paint == "" || paint == "none" {
		return nil, false
	}
	var r, g, b uint8
	h := strings.TrimPrefix(paint, "#")
	switch len(h) {
	case 3:
		v, err := strconv.ParseUint(h, 16, 16)
		if err != nil {
			return nil, false
		}
		r, g, b = uint8(v>>8&0xf)*17, uint8(v>>4&0xf)*17, uint8(v&0xf)*17
	case 6:
		v, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return nil, false
		}
		r, g, b = uint8(v>>16), uint8(v>>8), uint8(v)
	default:
		switch paint {
		case "white":
			r, g, b = 255, 255, 255
		case "black":
		default:
			return nil, false
		}
	}
	a := math.Max(0, math.Min(1, op))
	return color.NRGBA{r, g, b, uint8(a*255 + 0.5)}, true
}

// fill rasterizes the closed polygon pts (image pixels) in col, with a
// rasterizer the size of the polygon's bounds (one of the whole card per
// shape made a card take seconds).
func fill(dst *image.RGBA, pts [][2]float32, col color.Color) {
	if len(pts) < 3 {
		return
	}
	x0, y0, x1, y1 := pts[0][0], pts[0][1], pts[0][0], pts[0][1]
	for _, p := range pts[1:] {
		x0, y0, x1, y1 = min(x0, p[0]), min(y0, p[1]), max(x1, p[0]), max(y1, p[1])
	}
	r := image.Rect(int(math.Floor(float64(x0))), int(math.Floor(float64(y0))), int(math.Ceil(float64(x1)))+1, int(math.Ceil(float64(y1)))+1).Intersect(dst.Bounds())
	if r.Empty() {
		return
	}
	ox, oy := float32(r.Min.X), float32(r.Min.Y)
	z := vector.NewRasterizer(r.Dx(), r.Dy())
	z.DrawOp = draw.Over
	z.MoveTo(pts[0][0]-ox, pts[0][1]-oy)
	for _, p := range pts[1:] {
		z.LineTo(p[0]-ox, p[1]-oy)
	}
	z.ClosePath()
	z.Draw(dst, r, image.NewUniform(col), image.Point{})
}

func rectPath(x, y, w, h float32) [][2]float32 {
	return [][2]float32{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}
}

func (c *canvas) rect(s *style, as []xml.Attr) {
	x, y, w, h := num(as, "x"), num(as, "y"), num(as, "width"), num(as, "height")
	x0, y0 := c.pt(x, y)
	if col, ok := colour(s.fill, s.current, s.fillOp*s.op); ok && w > 0 && h > 0 {
		fill(c.dst, rectPath(x0, y0, float32(w*c.scale), float32(h*c.scale)), col)
	}
	if _, ok := colour(s.stroke, s.current, 1); ok {
		c.strokePath(s, [][2]float64{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}, {x, y}})
	}
}

func (c *canvas) line(s *style, as []xml.Attr) {
	c.strokePath(s, [][2]float64{{num(as, "x1"), num(as, "y1")}, {num(as, "x2"), num(as, "y2")}})
}

func (c *canvas) polyline(s *style, as []xml.Attr) {
	v, _ := attr(as, "points")
	f := strings.Fields(strings.ReplaceAll(v, ",", " "))
	var pts [][2]float64
	for i := 0; i+1 < len(f); i += 2 {
		x, _ := strconv.ParseFloat(f[i], 64)
		y, _ := strconv.ParseFloat(f[i+1], 64)
		pts = append(pts, [2]float64{x, y})
	}
	if col, ok := colour(s.fill, s.current, s.fillOp*s.op); ok && len(pts) > 2 {
		poly := make([][2]float32, len(pts))
		for i, p := range pts {
			poly[i][0], poly[i][1] = c.pt(p[0], p[1])
		}
		fill(c.dst, poly, col)
	}
	c.strokePath(s, pts)
}

func (c *canvas) circle(s *style, as []xml.Attr) {
	cx, cy, r := num(as, "cx"), num(as, "cy"), num(as, "r")
	if col, ok := colour(s.fill, s.current, s.fillOp*s.op); ok && r > 0 {
		fill(c.dst, c.disc(cx, cy, r), col)
	}
}

// disc is a circle's polygon in image pixels.
func (c *canvas) disc(cx, cy, r float64) [][2]float32 {
	const n = 32
	pts := make([][2]float32, n)
	for i := range n {
		a := 2 * math.Pi * float64(i) / n
		pts[i][0], pts[i][1] = c.pt(cx+r*math.Cos(a), cy+r*math.Sin(a))
	}
	return pts
}

// strokePath strokes the open path pts (user units) with s's stroke:
// each segment a quadrilateral, dashed by s.dash, with round joins.
func (c *canvas) strokePath(s *style, pts [][2]float64) {
	col, ok := colour(s.stroke, s.current, s.strokeOp*s.op)
	if !ok || len(pts) < 2 {
		return
	}
	w := math.Max(s.strokeW*c.scale, 1) // image pixels, at least one
	seg := func(a, b [2]float64) {
		ax, ay := c.pt(a[0], a[1])
		bx, by := c.pt(b[0], b[1])
		dx, dy := float64(bx-ax), float64(by-ay)
		l := math.Hypot(dx, dy)
		if l == 0 {
			return
		}
		nx, ny := float32(-dy/l*w/2), float32(dx/l*w/2)
		fill(c.dst, [][2]float32{{ax + nx, ay + ny}, {bx + nx, by + ny}, {bx - nx, by - ny}, {ax - nx, ay - ny}}, col)
	}
	if len(s.dash) == 0 {
		for i := 1; i < len(pts); i++ {
			seg(pts[i-1], pts[i])
			if i+1 < len(pts) && w > 1.5 {
				fill(c.dst, c.disc(pts[i][0], pts[i][1], w/2/c.scale), col)
			}
		}
		return
	}
	// Dashes: walk the path, drawing while in an "on" interval.
	total := 0.0
	for _, d := range s.dash {
		total += d
	}
	if total <= 0 {
		return
	}
	k, left, on := 0, s.dash[0], true
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		l := math.Hypot(b[0]-a[0], b[1]-a[1])
		pos := 0.0
		for pos < l {
			step := math.Min(left, l-pos)
			if on {
				t0, t1 := pos/l, (pos+step)/l
				seg([2]float64{a[0] + (b[0]-a[0])*t0, a[1] + (b[1]-a[1])*t0}, [2]float64{a[0] + (b[0]-a[0])*t1, a[1] + (b[1]-a[1])*t1})
			}
			pos += step
			left -= step
			if left <= 1e-9 {
				k = (k + 1) % len(s.dash)
				left, on = s.dash[k], !on
			}
		}
	}
}

// faceAt returns the text face at size pixels.
func (c *canvas) faceAt(size float64) (font.Face, error) {
	if f, ok := c.faces[size]; ok {
		return f, nil
	}
	f, err := face(c.font, size)
	if err != nil {
		return nil, err
	}
	c.faces[size] = f
	return f, nil
}

// text draws a text element: x, y, dy in em, text-anchor, and rotate(-90
// X Y) about its anchor (the vertical axis label).
func (c *canvas) text(s *style, body string) error {
	if body == "" {
		return nil
	}
	body = strings.Join(strings.Fields(body), " ")
	col, ok := colour(s.fill, s.current, s.fillOp*s.op)
	if !ok {
		return nil
	}
	size := s.fontSize * c.scale
	fc, err := c.faceAt(size)
	if err != nil {
		return err
	}
	x, y := textXY(s)
	if strings.HasSuffix(s.dy, "em") {
		v, _ := strconv.ParseFloat(strings.TrimSuffix(s.dy, "em"), 64)
		y += v * s.fontSize
	} else if s.dy != "" {
		v, _ := strconv.ParseFloat(s.dy, 64)
		y += v
	}
	adv := float64(font.MeasureString(fc, body)) / 64
	shift := 0.0
	switch s.anchor {
	case "middle":
		shift = adv / 2
	case "end":
		shift = adv
	}
	rot := strings.TrimSpace(s.transform)
	if rot == "" {
		px, py := c.pt(x, y)
		d := font.Drawer{Dst: c.dst, Src: image.NewUniform(col), Face: fc, Dot: fixed.Point26_6{X: fixed.Int26_6((float64(px) - shift) * 64), Y: fixed.Int26_6(float64(py) * 64)}}
		d.DrawString(body)
		return nil
	}
	if !strings.HasPrefix(rot, "rotate(-90") {
		return fmt.Errorf("preview: a text's transform %q: only rotate(-90 X Y) is drawn", rot)
	}
	// Draw the text on its own image, then turn it a quarter to the left
	// about the anchor (x, y).
	m := fc.Metrics()
	asc, desc := float64(m.Ascent)/64, float64(m.Descent)/64
	tw, th := int(adv)+2, int(asc+desc)+2
	tmp := image.NewRGBA(image.Rect(0, 0, tw, th))
	d := font.Drawer{Dst: tmp, Src: image.NewUniform(col), Face: fc, Dot: fixed.Point26_6{X: 64, Y: fixed.Int26_6(asc * 64)}}
	d.DrawString(body)
	px, py := c.pt(x, y)
	// A point (u, v) of tmp, whose baseline origin is (1, asc), lands at
	// (px + (v - asc), py - (u - 1 - shift)).
	for v := 0; v < th; v++ {
		for u := 0; u < tw; u++ {
			p := tmp.RGBAAt(u, v)
			if p.A == 0 {
				continue
			}
			X := int(math.Round(float64(px) + float64(v) - asc))
			Y := int(math.Round(float64(py) - (float64(u) - 1 - shift)))
			if !(image.Point{X, Y}.In(c.dst.Bounds())) {
				continue
			}
			blend(c.dst, X, Y, p)
		}
	}
	return nil
}

// textXY is the anchor of a text element.
func textXY(s *style) (float64, float64) { return s.tx, s.ty }

// blend puts premultiplied p over dst at (x, y).
func blend(dst *image.RGBA, x, y int, p color.RGBA) {
	q := dst.RGBAAt(x, y)
	a := 255 - uint32(p.A)
	dst.SetRGBA(x, y, color.RGBA{
		R: uint8(uint32(p.R) + uint32(q.R)*a/255),
		G: uint8(uint32(p.G) + uint32(q.G)*a/255),
		B: uint8(uint32(p.B) + uint32(q.B)*a/255),
		A: uint8(uint32(p.A) + uint32(q.A)*a/255),
	})
}
