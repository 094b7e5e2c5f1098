// Package preview draws the link previews of the site (Open Graph and
// Twitter cards, issue 34): a 1200×630 PNG with the page's title and, for
// an article or an embed, its main figure at its values, in the page's
// language, at build time and without a browser.
//
// The figure is the chart the widgets draw (site/widget, as a standalone
// SVG by site/embed.SVG); this package rasterizes the subset of SVG those
// charts use — rect, line, polyline, circle and text, inside g, with the
// presentation attributes they carry, the colours of site/embed's style
// element (light scheme) and rotate(-90 X Y) on an axis label — with
// golang.org/x/image/vector, and draws text with golang.org/x/image/font.
// An element or an attribute outside that subset is an error, so that a
// new chart that this package cannot draw fails the build instead of
// giving a wrong image.
//
// Fonts: Latin text uses the Go fonts (golang.org/x/image/font/gofont,
// inside the module: no system font). Chinese needs a CJK font, which no
// Go module ships: Noto Sans CJK of Debian's fonts-noto-cjk (site/e2e/deps.sh
// installs it), or the file RETRYLAB_CJK_FONT names. Without it a build
// of the Chinese pages' previews fails, saying which package to install.
package preview

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The card's size: what Open Graph consumers and Twitter's
// summary_large_image show (1.91:1).
const (
	Width  = 1200
	Height = 630
	// MaxBytes bounds each PNG (issue 34: at most 200 KB).
	MaxBytes = 200_000
)

// Fonts are the faces of a language's previews.
type Fonts struct {
	Regular, Bold *opentype.Font
}

// CJKPaths are where Debian's fonts-noto-cjk puts Noto Sans CJK.
var CJKPaths = []string{
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/opentype/noto-cjk/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
}

var (
	latinOnce sync.Once
	latin     Fonts
	latinErr  error
	cjkOnce   sync.Once
	cjk       Fonts
	cjkErr    error
)

// ErrNoCJKFont is the error of a Chinese preview without a CJK font.
var ErrNoCJKFont = errors.New("the Chinese link previews need a CJK font: install Debian's fonts-noto-cjk (./site/e2e/deps.sh does) or name a Noto Sans CJK .ttc or .otf file in RETRYLAB_CJK_FONT")

// FontsFor returns the fonts of lang's previews: the Go fonts, or a CJK
// font for zh (ErrNoCJKFont when there is none).
func FontsFor(lang string) (Fonts, error) {
	if strings.HasPrefix(lang, "zh") || lang == "ja" || lang == "ko" {
		cjkOnce.Do(func() { cjk, cjkErr = loadCJK() })
		return cjk, cjkErr
	}
	latinOnce.Do(func() {
		r, err1 := opentype.Parse(goregular.TTF)
		b, err2 := opentype.Parse(gobold.TTF)
		latin, latinErr = Fonts{r, b}, errors.Join(err1, err2)
	})
	return latin, latinErr
}

// loadCJK reads Noto Sans CJK, its Simplified Chinese face ("SC") when
// the file is a collection; Regular for both weights but for a Bold file
// beside it.
func loadCJK() (Fonts, error) {
	paths := CJKPaths
	if p := os.Getenv("RETRYLAB_CJK_FONT"); p != "" {
		paths = []string{p}
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		reg, err := pickSC(data)
		if err != nil {
			return Fonts{}, fmt.Errorf("preview: %s: %v", p, err)
		}
		bold := reg
		if bp := strings.Replace(p, "Regular", "Bold", 1); bp != p {
			if bd, err := os.ReadFile(bp); err == nil {
				if f, err := pickSC(bd); err == nil {
					bold = f
				}
			}
		}
		return Fonts{reg, bold}, nil
	}
	return Fonts{}, ErrNoCJKFont
}

// pickSC parses a font file or collection and returns its face whose
// family names Simplified Chinese (… SC), else the first.
func pickSC(data []byte) (*opentype.Font, error) {
	c, err := opentype.ParseCollection(data)
	if err != nil {
		return nil, err
	}
	var first *opentype.Font
	var buf sfnt.Buffer
	for i := range c.NumFonts() {
		f, err := c.Font(i)
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = f
		}
		if name, err := f.Name(&buf, sfnt.NameIDFamily); err == nil && strings.HasSuffix(name, " SC") {
			return f, nil
		}
	}
	if first == nil {
		return nil, errors.New("no font in the file")
	}
	return first, nil
}

// Card is what a preview shows.
type Card struct {
	Site  string // the site's name, small, at the top
	Title string // the page's title, large
	// SVG is the figure (a standalone chart of site/embed), nil for none:
	// the title then takes the card, with Subtitle under it.
	SVG      []byte
	Subtitle string
}

// Palette of the card, the site's light scheme (site/assets/style.css).
var (
	paper = color.RGBA{0xff, 0xff, 0xff, 0xff}
	ink   = color.RGBA{0x1b, 0x1f, 0x24, 0xff}
	muted = color.RGBA{0x57, 0x60, 0x6a, 0xff}
	brand = color.RGBA{0x1d, 0x4e, 0x89, 0xff}
)

// PNG draws the card with fonts and encodes it, at most MaxBytes.
func PNG(c Card, fonts Fonts) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	draw.Draw(img, img.Bounds(), image.NewUniform(paper), image.Point{}, draw.Src)
	fill(img, rectPath(0, 0, Width, 12), brand)
	const margin = 56
	y := 72.0
	if err := drawLine(img, fonts.Bold, 28, c.Site, margin, y, brand); err != nil {
		return nil, err
	}
	titleSize := 52.0
	maxLines := 2
	if c.SVG == nil {
		titleSize, maxLines = 64, 4
	}
	lines, err := wrap(fonts.Bold, titleSize, c.Title, Width-2*margin, maxLines)
	if err != nil {
		return nil, err
	}
	y += titleSize*1.2 + 8
	for _, l := range lines {
		if err := drawLine(img, fonts.Bold, titleSize, l, margin, y, ink); err != nil {
			return nil, err
		}
		y += titleSize * 1.2
	}
	if c.SVG == nil {
		sub, err := wrap(fonts.Regular, 32, c.Subtitle, Width-2*margin, 4)
		if err != nil {
			return nil, err
		}
		y += 16
		for _, l := range sub {
			if err := drawLine(img, fonts.Regular, 32, l, margin, y, muted); err != nil {
				return nil, err
			}
			y += 32 * 1.4
		}
	} else {
		top := int(y - titleSize*1.2 + 24)
		if err := drawSVG(img, c.SVG, image.Rect(margin, top, Width-margin, Height-24), fonts.Regular); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		return nil, err
	}
	if b.Len() > MaxBytes {
		return nil, fmt.Errorf("preview: the image of %q is %d bytes, more than %d", c.Title, b.Len(), MaxBytes)
	}
	return b.Bytes(), nil
}

// face returns a face of f at size pixels.
func face(f *opentype.Font, size float64) (font.Face, error) {
	return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
}

// drawLine draws s with its baseline at y, starting at x.
func drawLine(dst draw.Image, f *opentype.Font, size float64, s string, x, y float64, col color.Color) error {
	fc, err := face(f, size)
	if err != nil {
		return err
	}
	defer fc.Close()
	d := font.Drawer{Dst: dst, Src: image.NewUniform(col), Face: fc, Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
	return nil
}

// wrap breaks s into at most maxLines lines no wider than width pixels:
// at spaces, or between any two characters of a text without spaces
// (Chinese); the last line ends in "…" when s does not fit.
func wrap(f *opentype.Font, size float64, s string, width float64, maxLines int) ([]string, error) {
	fc, err := face(f, size)
	if err != nil {
		return nil, err
	}
	defer fc.Close()
	measure := func(t string) float64 { return float64(font.MeasureString(fc, t)) / 64 }
	var units []string // words with their trailing space, or single characters
	for _, r := range s {
		switch {
		case len(units) > 0 && r != ' ' && r < 0x2E80 && !strings.HasSuffix(units[len(units)-1], " ") && lastRune(units[len(units)-1]) < 0x2E80:
			units[len(units)-1] += string(r)
		case r == ' ' && len(units) > 0:
			units[len(units)-1] += " "
		default:
			units = append(units, string(r))
		}
	}
	var lines []string
	cur := ""
	for i, u := range units {
		if cur != "" && measure(strings.TrimRight(cur+u, " ")) > width {
			lines = append(lines, strings.TrimRight(cur, " "))
			cur = ""
			if len(lines) == maxLines {
				last := lines[maxLines-1]
				for last != "" && measure(last+"…") > width {
					rs := []rune(last)
					last = string(rs[:len(rs)-1])
				}
				lines[maxLines-1] = strings.TrimRight(last, " ,.;:") + "…"
				_ = i
				return lines, nil
			}
		}
		cur += u
	}
	if strings.TrimSpace(cur) != "" {
		lines = append(lines, strings.TrimRight(cur, " "))
	}
	return lines, nil
}

func lastRune(s string) rune {
	r := []rune(s)
	if len(r) == 0 {
		return 0
	}
	return r[len(r)-1]
}

// newCard is a blank card.
func newCard() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	draw.Draw(img, img.Bounds(), image.NewUniform(paper), image.Point{}, draw.Src)
	return img
}
