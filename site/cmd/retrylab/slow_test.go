//go:build linux

package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSlowReaders runs `retrylab serve` as a process of its own with a
// 4.2 MB module (and its .br and .gz variants) and opens 200 connections,
// from four loopback addresses (50 each, under the default -max-conns),
// that request the module and never read (issue 28). Once the kernel
// holds unsent data on 200 of the server's connections (its socket
// table, /proc/PID/net/tcp: the writes are blocked on readers that do
// not read), the server's resident memory (VmRSS) and its peak (VmHWM)
// must be under 150 MB: a response is copied from the opened file,
// never read whole (before: +4.2 MB per reader), and pages and the
// module must keep answering another client. Polled for state, with
// deadlines; nothing is timed.
func TestSlowReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("200 connections to a process of its own")
	}
	dist := t.TempDir()
	files := map[string][]byte{
		"index.html":    []byte("<!DOCTYPE html><title>x</title>"),
		"it/index.html": []byte("<!DOCTYPE html><title>it</title>" + strings.Repeat("<p>ritenta</p>\n", 300)),
		"404.html":      []byte("<!DOCTYPE html>404"),
	}
	const module = "assets/play.0123456789ab.wasm"
	for name, size := range map[string]int{module: 4200 << 10, module + ".br": 1100 << 10, module + ".gz": 1300 << 10} {
		b := make([]byte, size) // random: what the kernel buffers is not compressible either
		rand.Read(b)
		files[name] = b
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dist, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dist, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base, pid := startServe(t, ctx, []string{"serve", "-addr", "127.0.0.1:0", "-dist", dist})
	addr := strings.TrimPrefix(base, "http://")
	_, port, _ := net.SplitHostPort(addr)

	const readers = 200
	encodings := []string{"br", "gzip", "identity", "br, gzip"}
	for i := range readers {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i%4))}}
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			t.Fatalf("reader %d: %v", i, err)
		}
		defer c.Close()
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetReadBuffer(4 << 10) // a small window: the server's writes block early
		}
		fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: x\r\nAccept-Encoding: %s\r\n\r\n", module, encodings[i%len(encodings)])
	}
	blocked := 0
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		blocked = unsentConns(t, pid, port)
		if blocked >= readers {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d connections hold unsent data after 60 s", blocked, readers)
		}
	}
	rss, hwm := procStatus(t, pid, "VmRSS:"), procStatus(t, pid, "VmHWM:")
	t.Logf("%d slow readers blocked: server VmRSS %.1f MB, peak %.1f MB", blocked, float64(rss)/1e6, float64(hwm)/1e6)
	if hwm > 150e6 {
		t.Errorf("server's peak RSS %.1f MB with %d slow readers, want under 150 MB", float64(hwm)/1e6, readers)
	}
	for i := range 5 { // another client still gets pages and the module, whole
		for _, tt := range []struct {
			path string
			size int
		}{{"/it/", len(files["it/index.html"])}, {"/" + module, len(files[module])}} {
			req, _ := http.NewRequestWithContext(ctx, "GET", base+tt.path, nil)
			req.Header.Set("Accept-Encoding", "identity")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("fetch %d of %s: %v", i, tt.path, err)
			}
			n, err := io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || err != nil || int(n) != tt.size {
				t.Errorf("fetch %d of %s: %d, %d bytes (%v), want 200 and %d bytes", i, tt.path, res.StatusCode, n, err, tt.size)
			}
		}
	}
	if hwm2 := procStatus(t, pid, "VmHWM:"); hwm2 > 150e6 {
		t.Errorf("server's peak RSS %.1f MB after the fetches, want under 150 MB", float64(hwm2)/1e6)
	}
}

// unsentConns counts the TCP connections of process pid's network
// namespace whose local port is port and whose send queue is not empty
// (/proc/PID/net/tcp, tx_queue: bytes sent and not acknowledged, which
// stay when the peer's window is closed).
func unsentConns(t *testing.T, pid int, port string) int {
	t.Helper()
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(":%04X", p)
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/net/tcp")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		// sl local_address rem_address st tx_queue:rx_queue …
		if len(fields) < 5 || !strings.HasSuffix(fields[1], want) || fields[3] != "01" { // 01: established
			continue
		}
		tx, _, _ := strings.Cut(fields[4], ":")
		if q, err := strconv.ParseUint(tx, 16, 64); err == nil && q > 0 {
			n++
		}
	}
	return n
}

// procStatus returns the value of a kB line of /proc/PID/status, in bytes.
func procStatus(t *testing.T, pid int, key string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", key, pid)
	return 0
}
