package server

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serveListen serves h on a loopback listener wrapped by Listen and
// returns its address and the wrapper.
func serveListen(t *testing.T, h http.Handler, cfg ListenConfig) (string, *listener) {
	t.Helper()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := Listen(tcp, cfg)
	srv := &http.Server{Handler: h, MaxHeaderBytes: 4 << 10, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return tcp.Addr().String(), ln.(*listener)
}

// raw sends text on a new connection and returns the response net/http
// reads from it.
func raw(t *testing.T, addr, text string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second)) // a hang fails, it does not block the test run
	if _, err := io.WriteString(c, text); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%q: %v", text[:min(len(text), 60)], err)
	}
	return res
}

// checkOurs checks that res is the API's JSON error with the site's
// headers, status and code.
func checkOurs(t *testing.T, what string, res *http.Response, status int, code string) {
	t.Helper()
	defer res.Body.Close()
	var e apiError
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != status || json.Unmarshal(body, &e) != nil || e.Error.Code != code || e.Error.Message == "" {
		t.Errorf("%s: %d %q, want %d with code %s", what, res.StatusCode, body, status, code)
	}
	for k, v := range map[string]string{"Content-Security-Policy": PageCSP, "X-Content-Type-Options": "nosniff",
		"Content-Type": "application/json", "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*"} {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s: %s = %q, want %q", what, k, got, v)
		}
	}
}

// TestGoErrorsAreOurs: the answers net/http writes before any handler
// runs come out as the API's JSON error with the site's headers (issue
// 28): a bad escape in the path, a malformed request line, headers past
// MaxHeaderBytes, an unknown transfer coding; and the handler's own
// answers pass unchanged.
func TestGoErrorsAreOurs(t *testing.T) {
	addr, _ := serveListen(t, New(Config{Dist: testDist()}), ListenConfig{})
	for _, tt := range []struct {
		what, req string
		status    int
	}{
		{"bad escape in the path", "GET /api/v1/%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"bad escape in a page's path", "GET /it/%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"malformed request line", "GET\r\nHost: x\r\n\r\n", 400},
		{"no Host", "GET / HTTP/1.1\r\n\r\n", 400},
		{"headers too long", "GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + strings.Repeat("a", 8<<10) + "\r\n\r\n", 431},
		{"request line too long", "GET /" + strings.Repeat("a", 8<<10) + " HTTP/1.1\r\nHost: x\r\n\r\n", 431},
		{"unknown transfer coding", "POST /api/v1/attempts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: zip\r\n\r\n", 501},
	} {
		checkOurs(t, tt.what, raw(t, addr, tt.req), tt.status, "http")
	}
	res := raw(t, addr, "GET /api/v1/attempts?q=%zz HTTP/1.1\r\nHost: x\r\n\r\n")
	checkOurs(t, "the handler's own 400", res, 400, "syntax")
	res = raw(t, addr, "GET /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n")
	if b, _ := io.ReadAll(res.Body); res.StatusCode != 200 || string(b) != "User-agent: *\n" {
		t.Errorf("a page through Listen: %d %q", res.StatusCode, b)
	}
}

func TestGoError(t *testing.T) {
	for in, want := range map[string]int{
		"HTTP/1.1 400 Bad Request" + goErrorHeaders + "400 Bad Request":                                         400,
		"HTTP/1.1 431 Request Header Fields Too Large" + goErrorHeaders + "431 Request Header Fields Too Large": 431,
		"HTTP/1.1 400 Bad Request: missing required Host header" + goErrorHeaders + "400 Bad Request: missing…": 400,
		"HTTP/1.1 200 OK" + goErrorHeaders:                                         0, // not an error
		"HTTP/1.1 400 Bad Request\r\nCache-Control: no-store\r\n" + goErrorHeaders: 0, // a handler's answer
		"HTTP/1.1 4xx Bad Request" + goErrorHeaders:                                0,
		"<!DOCTYPE html>HTTP/1.1 400 Bad Request" + goErrorHeaders:                 0,
		"": 0,
		"HTTP/1.1 400 Bad Request\r\n\r\nContent-Type: text/plain; charset=utf-8": 0,
	} {
		if got, _, _ := goError([]byte(in)); got != want {
			t.Errorf("goError(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestConnCap: a client holds at most MaxPerClient connections; the next
// is answered 503 with Retry-After and the API's JSON error; closing one
// frees its place; the count goes back to zero.
func TestConnCap(t *testing.T) {
	addr, ln := serveListen(t, New(Config{Dist: testDist()}), ListenConfig{MaxPerClient: 3})
	var held []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	key := clientKey(held[0].LocalAddr().String())
	waitFor(t, "3 connections counted", func() bool { return ln.Open(key) == 3 })
	res := raw(t, addr, "GET /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n")
	if res.Header.Get("Retry-After") != "1" {
		t.Errorf("503 without Retry-After: %v", res.Header)
	}
	checkOurs(t, "a fourth connection", res, 503, "too_many_connections")
	held[0].Close()
	waitFor(t, "a place freed", func() bool { return ln.Open(key) == 2 })
	res = raw(t, addr, "GET /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n")
	if res.StatusCode != 200 {
		t.Errorf("after a close: %d, want 200", res.StatusCode)
	}
	for _, c := range held[1:] {
		c.Close()
	}
	waitFor(t, "no connection left", func() bool { return ln.Open(key) <= 1 }) // raw's own closes at cleanup
}

// waitFor polls cond until it holds, failing after 10 s (a deadline for
// the state, not a measured time).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 10 s", what)
		}
	}
}

// TestWriteIdle: a client that reads nothing loses its connection once a
// write has waited WriteIdle (the clock is real here: WriteIdle is a
// deadline the kernel enforces); the server's writer returns.
func TestWriteIdle(t *testing.T) {
	big := make([]byte, 32<<20)
	done := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := w.Write(big)
		done <- err
	})
	addr, _ := serveListen(t, h, ListenConfig{WriteIdle: 200 * time.Millisecond})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	select {
	case err := <-done:
		if err == nil {
			t.Error("the write of 32 MiB to a client that reads nothing succeeded")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the writer still waits for a client that reads nothing")
	}
}

// TestReadFromChunks: ReadFrom copies a LimitedReader whole, no more
// than its limit, and updates its count.
func TestReadFromChunks(t *testing.T) {
	a, b := net.Pipe()
	l := &listener{cfg: ListenConfig{}, open: map[string]int{}}
	l.cfg.defaults()
	c := &conn{Conn: a, l: l, key: "k"}
	src := strings.NewReader(strings.Repeat("x", 600<<10) + "tail")
	lr := &io.LimitedReader{R: src, N: 600 << 10}
	got := make(chan int, 1)
	go func() {
		n, _ := io.Copy(io.Discard, b)
		got <- int(n)
	}()
	n, err := c.ReadFrom(lr)
	a.Close()
	if err != nil || n != 600<<10 || lr.N != 0 || <-got != 600<<10 {
		t.Errorf("ReadFrom: %d, %v, left %d", n, err, lr.N)
	}
}
