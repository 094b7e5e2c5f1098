package locale

import "testing"

// TestSymbolsByLanguage: sym picks the language's symbols by subtag, in
// any case, and English's for a language without its own (the map it
// replaced did the same).
func TestSymbolsByLanguage(t *testing.T) {
	items := []string{"a", "b", "c"}
	for _, tt := range []struct {
		lang, number, list, or, yes string
	}{
		{"", "12,345.5", "a, b, and\u00a0c", "a, b, or\u00a0c", "yes"},
		{"en", "12,345.5", "a, b, and\u00a0c", "a, b, or\u00a0c", "yes"},
		{"fr", "12,345.5", "a, b, and\u00a0c", "a, b, or\u00a0c", "yes"},
		{"it", "12.345,5", "a, b e\u00a0c", "a, b o\u00a0c", "sì"},
		{"IT", "12.345,5", "a, b e\u00a0c", "a, b o\u00a0c", "sì"},
		{"es", "12.345,5", "a, b y\u00a0c", "a, b o\u00a0c", "sí"},
		{"es_MX", "12.345,5", "a, b y\u00a0c", "a, b o\u00a0c", "sí"},
		{"zh", "12,345.5", "a、b和c", "a、b或c", "是"},
		{"zh-Hans", "12,345.5", "a、b和c", "a、b或c", "是"},
	} {
		l := Locale{Lang: tt.lang}
		if got := l.MaxFrac(12345.5, 2); got != tt.number {
			t.Errorf("%q: MaxFrac = %q, want %q", tt.lang, got, tt.number)
		}
		if got := l.List(items); got != tt.list {
			t.Errorf("%q: List = %q, want %q", tt.lang, got, tt.list)
		}
		if got := l.ListOr(items); got != tt.or {
			t.Errorf("%q: ListOr = %q, want %q", tt.lang, got, tt.or)
		}
		if got := l.YesNo(true); got != tt.yes {
			t.Errorf("%q: YesNo = %q, want %q", tt.lang, got, tt.yes)
		}
	}
}
