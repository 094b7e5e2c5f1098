package preview

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/embed"
	"retrylab/site/locale"
)

// TestCharts draws every calculator's chart at its defaults into a card
// with the Go fonts: each a 1200×630 PNG under MaxBytes, with no element
// of the charts left out (a chart that used an element this package does
// not draw would fail here, not give a wrong image in the build), and
// with ink where the chart is.
func TestCharts(t *testing.T) {
	fonts, err := FontsFor("it")
	if err != nil {
		t.Fatal(err)
	}
	reg := calc.New()
	out := os.Getenv("PREVIEW_OUT") // a folder to look at the cards in
	for _, c := range reg.List() {
		if embed.ChartView(c) == "" {
			continue
		}
		svg, err := embed.SVG(reg, locale.Locale{Lang: "it"}, c.Name, nil)
		if err != nil {
			continue // a calculator whose generic chart draws nothing
		}
		t.Run(c.Name, func(t *testing.T) {
			c0 := &canvasCheck{}
			skipped, err := c0.render(svg)
			if err != nil {
				t.Fatal(err)
			}
			if len(skipped) > 0 {
				t.Errorf("elements left out of the chart: %v", skipped)
			}
			b, err := PNG(Card{Site: "retrylab", Title: "Una seconda possibilità consuma risorse reali: " + c.Name, SVG: svg}, fonts)
			if err != nil {
				t.Fatal(err)
			}
			checkPNG(t, b, true)
			if out != "" {
				os.WriteFile(filepath.Join(out, c.Name+".png"), b, 0o644)
			}
		})
	}
}

// TestTextCard: a page without a chart gets its title and description.
func TestTextCard(t *testing.T) {
	fonts, err := FontsFor("es")
	if err != nil {
		t.Fatal(err)
	}
	b, err := PNG(Card{Site: "retrylab", Title: "Glosario", Subtitle: "Un nombre para cada concepto, el mismo en el texto, en los controles y en los ejercicios."}, fonts)
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, b, false)
}

// TestNoCJKFont: without a CJK font the Chinese cards fail, saying what
// to install.
func TestNoCJKFont(t *testing.T) {
	t.Setenv("RETRYLAB_CJK_FONT", filepath.Join(t.TempDir(), "none.ttc"))
	if _, err := loadCJK(); !errors.Is(err, ErrNoCJKFont) {
		t.Fatalf("loadCJK without a font: %v, want ErrNoCJKFont", err)
	}
}

func TestWrap(t *testing.T) {
	fonts, _ := FontsFor("it")
	lines, err := wrap(fonts.Bold, 52, "Limiti di frequenza e retry nelle API dei modelli linguistici, con ogni conto eseguito dal vivo e molto altro ancora da dire", 1088, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[1][len(lines[1])-len("…"):] != "…" {
		t.Errorf("wrap: %q", lines)
	}
}

// canvasCheck renders a chart on a blank card-sized image.
type canvasCheck struct{}

func (canvasCheck) render(svg []byte) ([]string, error) {
	fonts, _ := FontsFor("it")
	img := newCard()
	return render(img, svg, img.Bounds(), fonts.Regular)
}

func checkPNG(t *testing.T, b []byte, chart bool) {
	t.Helper()
	if len(b) > MaxBytes {
		t.Errorf("%d bytes, more than %d", len(b), MaxBytes)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != Width || r.Dy() != Height {
		t.Errorf("size %v, want %dx%d", r, Width, Height)
	}
	// The lower half holds the chart: some pixels are the charts' blue.
	blue := 0
	for y := Height / 2; y < Height; y++ {
		for x := 0; x < Width; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if b>>8 > 0x60 && r>>8 < 0x60 && g>>8 < 0x90 && b > r {
				blue++
			}
		}
	}
	if chart && blue == 0 {
		t.Error("no chart colour in the lower half")
	}
}
