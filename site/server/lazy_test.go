package server

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestMain(m *testing.M) {
	if os.Getenv("RETRYLAB_INITTRACE") == "1" {
		os.Exit(0) // TestStartupAllocs: the package inits have run
	}
	os.Exit(m.Run())
}

// Budgets of start-up work (TestStartupAllocs).
const (
	// initAllocBudget bounds the allocations of every retrylab package's
	// initialization linked into this test (site/server and what it
	// imports: calc, core/..., site/embed, site/widget, site/locale):
	// registries, string tables, templates, regexps are built on first
	// use instead. Measured: 0 (2,067 allocations, 129 KB, before).
	initAllocBudget = 8
	// newServeBudget bounds the allocations of New and one static request
	// (what the Worker pays before a miss's 404 page, minus the runtime's
	// own start). Measured: 39 with this test's map file system.
	newServeBudget = 40
)

// TestStartupAllocs holds the start-up of the handler to a budget: the
// allocations of the packages' initialization, read from the runtime's
// init trace (GODEBUG=inittrace=1) of this test binary run again, and
// those of constructing the handler and serving one static file.
func TestStartupAllocs(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "RETRYLAB_INITTRACE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s with GODEBUG=inittrace=1: %v\n%s", os.Args[0], err, out)
	}
	allocs, bytes, pkgs := 0, 0, 0
	var heavy []string
	for _, line := range strings.Split(string(out), "\n") {
		// init retrylab/site/server @1.4 ms, 0.008 ms clock, 5488 bytes, 42 allocs
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || f[len(f)-1] != "allocs" || !strings.HasPrefix(f[1], "retrylab/") {
			continue
		}
		n, err1 := strconv.Atoi(f[len(f)-2])
		b, err2 := strconv.Atoi(f[len(f)-4])
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot read %q", line)
		}
		pkgs++
		allocs += n
		bytes += b
		if n > 0 {
			heavy = append(heavy, f[1]+": "+f[len(f)-2]+" allocs, "+f[len(f)-4]+" bytes")
		}
	}
	// A package with nothing to do at start-up is not in the trace; a
	// trace without net/http's line is not one.
	if !strings.Contains(string(out), "init net/http @") {
		t.Fatalf("no init trace:\n%s", out)
	}
	t.Logf("init of %d retrylab packages: %d allocations, %d bytes", pkgs, allocs, bytes)
	if allocs > initAllocBudget {
		t.Errorf("the retrylab packages allocate %d times at start-up (budget %d): build these on first use instead:\n%s",
			allocs, initAllocBudget, strings.Join(heavy, "\n"))
	}

	dist := fstest.MapFS{"robots.txt": {Data: []byte("User-agent: *\n")}}
	n := testing.AllocsPerRun(100, func() {
		h := New(Config{Dist: dist})
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/robots.txt", nil))
	})
	// the request and the recorder alone
	base := testing.AllocsPerRun(100, func() {
		httptest.NewRecorder()
		httptest.NewRequest("GET", "/robots.txt", nil)
	})
	t.Logf("New and one static request: %.0f allocations (%.0f of them the request and the recorder)", n, base)
	if n-base > newServeBudget {
		t.Errorf("New and one static request allocate %.0f times beyond the request's own %.0f (budget %d)", n-base, base, newServeBudget)
	}
}

// hashedRE is the regular expression hashedName replaces (compiled in the
// tests that use it, not at start-up: TestStartupAllocs counts this
// package's initialization too).
func hashedRE() *regexp.Regexp { return regexp.MustCompile(`\.[0-9a-f]{12}\.[a-z0-9]+$`) }

func TestHashedName(t *testing.T) {
	hashedRE := hashedRE()
	for name, want := range map[string]bool{
		"assets/app.0123456789ab.js": true, "a.0123456789ab.woff2": true, ".0123456789ab.x": true,
		"assets/app.0123456789ab.": false, "assets/app.0123456789aB.js": false, "app.123456789ab.js": false,
		"app.0123456789ab.JS": false, "app.0123456789abc.js": false, "app.10123456789ab.js": false, "app.0123456789ab.js.map": false,
		"app0123456789ab.js": false, "": false, "index.html": false, "x.0123456789ab.tar.gz": false,
	} {
		if got := hashedName(name); got != want || got != hashedRE.MatchString(name) {
			t.Errorf("hashedName(%q) = %v, want %v (the regexp says %v)", name, got, want, hashedRE.MatchString(name))
		}
	}
}

// FuzzHashedName holds hashedName to the regular expression it replaces.
func FuzzHashedName(f *testing.F) {
	for _, s := range []string{"a.0123456789ab.js", "b.fffffffffff.css", ".0123456789ab.x", "x..0123456789ab.js"} {
		f.Add(s)
	}
	hashedRE := hashedRE()
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := hashedName(name), hashedRE.MatchString(name); got != want {
			t.Errorf("hashedName(%q) = %v, the regexp %v", name, got, want)
		}
	})
}

func TestContentType(t *testing.T) {
	for ext, want := range map[string]string{".html": "text/html; charset=utf-8", ".wasm": "application/wasm", ".woff2": "font/woff2", ".exe": "application/octet-stream", "": "application/octet-stream"} {
		if got := contentType(ext); got != want {
			t.Errorf("contentType(%q) = %q, want %q", ext, got, want)
		}
	}
}
