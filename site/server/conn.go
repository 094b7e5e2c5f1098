package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// ListenConfig configures Listen. A zero field takes its default.
type ListenConfig struct {
	// MaxPerClient is the most connections one client (clientKey: an IP,
	// an IPv6 address by its /64) holds open at once (default 64: a
	// classroom of browsers behind one NAT opens a few each). Beyond it a
	// new connection is answered 503 with the API's JSON error and closed.
	MaxPerClient int
	// WriteIdle is how long one write to a connection may wait for the
	// client to read (default 20 s): a reader that reads nothing for that
	// long loses its connection, a slow reader that keeps reading does
	// not (http.Server's WriteTimeout bounds the whole response instead).
	WriteIdle time.Duration
	// Now is the clock (default time.Now), for tests.
	Now func() time.Time
}

func (c *ListenConfig) defaults() {
	if c.MaxPerClient <= 0 {
		c.MaxPerClient = 64
	}
	if c.WriteIdle <= 0 {
		c.WriteIdle = 20 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Listen wraps the listener of `retrylab serve`:
//
//   - at most MaxPerClient open connections per client; past it, a 503
//     with Retry-After and the API's JSON error, then the connection is
//     closed;
//   - each write waits at most WriteIdle for the client;
//   - the answers net/http writes by itself, before any handler runs (400
//     for a malformed request or a bad escape in the path, 431 for a
//     request line or headers past MaxHeaderBytes, 501 for an unknown
//     transfer coding), are rewritten into the API's JSON error with the
//     site's headers (ourError). net/http writes each of these in one
//     write of its own, a status line followed by exactly
//     "Content-Type: text/plain; charset=utf-8" and "Connection: close"
//     (net/http's server.go, conn.serve, Go 1.26); the site's own answers
//     always carry the security headers first and never match. What
//     cannot be rewritten: a client that resets the connection, and a
//     431 for headers still arriving (net/http closes as it answers;
//     the client may not read it).
func Listen(ln net.Listener, cfg ListenConfig) net.Listener {
	cfg.defaults()
	return &listener{Listener: ln, cfg: cfg, open: map[string]int{}, refusing: make(chan struct{}, 64)}
}

type listener struct {
	net.Listener
	cfg ListenConfig

	mu   sync.Mutex
	open map[string]int // client key → open connections

	// refusing bounds the goroutines that answer a refused connection
	refusing chan struct{}
}

// Open returns the connections client key holds open, for tests.
func (l *listener) Open(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open[key]
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := clientKey(c.RemoteAddr().String())
		l.mu.Lock()
		n := l.open[key]
		if n < l.cfg.MaxPerClient {
			l.open[key] = n + 1
		}
		l.mu.Unlock()
		if n >= l.cfg.MaxPerClient {
			l.refuse(c)
			continue
		}
		return &conn{Conn: c, l: l, key: key}, nil
	}
}

// refuse answers a connection past the client's cap with a 503 and
// closes it: it reads the request's head for up to a second first, so
// that the client, still sending, is not reset before it reads the
// answer. Beyond 64 refusals at once, a connection is closed unanswered.
func (l *listener) refuse(c net.Conn) {
	select {
	case l.refusing <- struct{}{}:
	default:
		c.Close()
		return
	}
	go func() {
		defer func() { <-l.refusing }()
		defer c.Close()
		now := l.cfg.Now()
		c.SetDeadline(now.Add(time.Second))
		buf := make([]byte, 4096)
		for got := 0; got < len(buf); {
			n, err := c.Read(buf[got:])
			got += n
			if err != nil || bytes.Contains(buf[:got], []byte("\r\n\r\n")) {
				break
			}
		}
		c.Write(ourError(http.StatusServiceUnavailable, "too_many_connections",
			"your address has "+strconv.Itoa(l.cfg.MaxPerClient)+" connections open to this server, its most; close some, or retry after the seconds Retry-After says",
			"Retry-After: 1\r\n"))
	}()
}

// conn is an accepted connection: it counts against its client while
// open, bounds each write by WriteIdle, and rewrites net/http's own
// error answers.
type conn struct {
	net.Conn
	l      *listener
	key    string
	closed sync.Once

	mu       sync.Mutex
	deadline time.Time // the write deadline net/http set (zero: none)
}

func (c *conn) Close() error {
	c.closed.Do(func() {
		c.l.mu.Lock()
		if c.l.open[c.key]--; c.l.open[c.key] <= 0 {
			delete(c.l.open, c.key)
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// CloseWrite half-closes a TCP connection, as net/http does after a 431
// (closeWriteAndWait).
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *conn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadline = t
	c.mu.Unlock()
	return c.Conn.SetWriteDeadline(t)
}

func (c *conn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadline = t
	c.mu.Unlock()
	return c.Conn.SetDeadline(t)
}

// arm sets the write deadline to WriteIdle from now, or net/http's own
// when that comes first.
func (c *conn) arm() {
	d := c.l.cfg.Now().Add(c.l.cfg.WriteIdle)
	c.mu.Lock()
	if !c.deadline.IsZero() && c.deadline.Before(d) {
		d = c.deadline
	}
	c.mu.Unlock()
	c.Conn.SetWriteDeadline(d)
}

func (c *conn) Write(p []byte) (int, error) {
	if status, text, ok := goError(p); ok {
		c.arm()
		if _, err := c.Conn.Write(ourError(status, "http", "the server cannot read this request: "+text+
			" (a malformed request line, a bad percent-escape in the path, or a request line or headers that are too long)", "")); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	written := 0
	for written < len(p) { // each chunk gets WriteIdle: a reader that keeps reading keeps its connection
		chunk := min(len(p)-written, 64<<10)
		c.arm()
		n, err := c.Conn.Write(p[written : written+chunk])
		written += n
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// ReadFrom copies a response body (an opened file, as serveFile passes
// it, or an io.LimitedReader of one) to the connection in chunks of 256
// KiB, each within WriteIdle; natively the TCP connection sends each
// chunk of an *os.File with sendfile, without a buffer of ours.
func (c *conn) ReadFrom(r io.Reader) (int64, error) {
	const chunk = 256 << 10
	src, remain := r, int64(-1) // -1: until EOF
	lr, limited := r.(*io.LimitedReader)
	if limited {
		src, remain = lr.R, lr.N
	}
	var total int64
	for remain != 0 {
		size := int64(chunk)
		if remain > 0 && remain < size {
			size = remain
		}
		c.arm()
		n, err := io.Copy(c.Conn, &io.LimitedReader{R: src, N: size})
		total += n
		if remain > 0 {
			remain -= n
		}
		if limited {
			lr.N -= n
		}
		if err != nil || n < size {
			return total, err
		}
	}
	return total, nil
}

// goErrorHeaders follows the status line of every answer net/http writes by
// itself (server.go, conn.serve).
const goErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// goError recognizes an answer net/http writes by itself ("HTTP/1.1 400
// Bad Request" + goErrorHeaders + text) and returns its status and its
// text.
func goError(p []byte) (int, string, bool) {
	rest, ok := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	if !ok || len(rest) < 4 || rest[3] != ' ' {
		return 0, "", false
	}
	line, _, ok := bytes.Cut(rest, []byte("\r\n"))
	if !ok || !bytes.HasPrefix(rest[len(line):], []byte(goErrorHeaders)) {
		return 0, "", false
	}
	status, err := strconv.Atoi(string(rest[:3]))
	if err != nil || status < 400 || status > 599 {
		return 0, "", false
	}
	return status, string(line), true
}

// ourError is a whole HTTP/1.1 answer, written to a connection directly:
// the API's JSON error with the site's headers (securityHeaders,
// writeJSONError's), extra header lines, and Connection: close.
func ourError(status int, code, msg, extra string) []byte {
	var e apiError
	e.Error.Code, e.Error.Message = code, msg
	body, _ := json.Marshal(e)
	body = append(body, '\n')
	h := http.Header{}
	securityHeaders(headerWriter(h))
	h.Set("Cache-Control", "no-store")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Connection", "close")
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n")
	h.Write(&b)
	b.WriteString(extra)
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// headerWriter is an http.ResponseWriter that only holds headers, for
// securityHeaders.
type headerWriter http.Header

func (h headerWriter) Header() http.Header         { return http.Header(h) }
func (h headerWriter) Write(b []byte) (int, error) { return len(b), nil }
func (h headerWriter) WriteHeader(int)             {}
