package markdown

import (
	"strings"
	"testing"
)

func TestHeadingIDs(t *testing.T) {
	src := fm + "## Il caso più benevolo\n\n## 为什么要重试？\n\n## Il caso più benevolo\n\n## ¿Cuántos intentos?\n\n## main\n\n## !!!\n"
	p, err := testConverter(nil).Convert("h.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="il-caso-più-benevolo"`, `id="为什么要重试"`, `id="il-caso-più-benevolo-2"`, `id="cuántos-intentos"`, `id="main-2"`, `id="section"`} {
		if !strings.Contains(string(p.HTML), want) {
			t.Errorf("no %s in\n%s", want, p.HTML)
		}
	}
}
