// Package local runs the Cloudflare Worker of retrylab on the real workerd
// binary (pinned in package-lock.json) on a loopback port, with the static
// assets and the Go Worker wired as Cloudflare wires them
// (wasm/worker/workerd.capnp). Tests and `make bench` start it and stop it by its
// process id; it needs no network.
package local

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config is the configuration of the workerd run, relative to Root.
const Config = "wasm/worker/workerd.capnp"

// Bundle is the folder that `make worker` writes: the Worker's modules
// (entry.mjs, edge.mjs, edge-data.mjs, worker.mjs, goshim.mjs, wasm_exec.js,
// app.wasm), the static-assets folder
// public/ and assets.json, the assets configuration workerd reads.
const Bundle = "build/worker"

// NodeModules is where `npm ci --ignore-scripts` installs the Worker's
// pinned JavaScript tools (wasm/worker/package-lock.json), relative to Root.
const NodeModules = "wasm/worker/node_modules"

// Binary returns the path of the workerd binary that `npm ci` installs under
// root/node_modules (the platform package that the workerd package's
// launcher runs; require('workerd').default names the same file).
func Binary(root string) string {
	arch := map[string]string{"amd64": "64", "arm64": "arm64"}[runtime.GOARCH]
	return filepath.Join(root, NodeModules, "@cloudflare", "workerd-"+runtime.GOOS+"-"+arch, "bin", "workerd")
}

// Check reports, as one error naming the make target to run, whatever the
// local run lacks: the workerd binary, dist/ or the Worker bundle.
func Check(root string) error {
	var missing []string
	if _, err := os.Stat(Binary(root)); err != nil {
		missing = append(missing, fmt.Sprintf("the workerd binary (%s): run `make deps` (npm ci --ignore-scripts)", Binary(root)))
	}
	if _, err := os.Stat(filepath.Join(root, "dist", "index.html")); err != nil {
		missing = append(missing, "dist/index.html: run `make build`")
	}
	for _, f := range []string{"app.wasm", "entry.mjs", "edge.mjs", "edge-data.mjs", "worker.mjs", "goshim.mjs", "wasm_exec.js", "assets.json", "public/index.html"} {
		if _, err := os.Stat(filepath.Join(root, Bundle, f)); err != nil {
			missing = append(missing, fmt.Sprintf("%s/%s: run `make worker`", Bundle, f))
		}
	}
	if len(missing) > 0 {
		return errors.New("the local Worker cannot start; missing " + strings.Join(missing, "; "))
	}
	return stale(root)
}

// stale reports a Worker bundle older than what it is built from: dist/,
// or a Go file of the module that ./wasm/worker compiles (`go list -deps`
// for js/wasm).
func stale(root string) error {
	wasm, err := os.Stat(filepath.Join(root, Bundle, "app.wasm"))
	if err != nil {
		return err
	}
	public, err := os.Stat(filepath.Join(root, Bundle, "assets.json"))
	if err != nil {
		return err
	}
	if dist, err := os.Stat(filepath.Join(root, "dist", "index.html")); err == nil && dist.ModTime().After(public.ModTime()) {
		return fmt.Errorf("%s/public is older than dist/: run `make worker`", Bundle)
	}
	files, err := sources(root)
	if err != nil {
		return err
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.ModTime().After(wasm.ModTime()) {
			rel, _ := filepath.Rel(root, f)
			return fmt.Errorf("%s/app.wasm is older than %s: run `make worker`", Bundle, rel)
		}
	}
	return nil
}

// sources lists the Go files of the module that ./wasm/worker is built
// from.
func sources(root string) ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{end}}{{end}}", "./wasm/worker")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./wasm/worker: %v", err)
	}
	var files []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		for _, name := range f[min(1, len(f)):] {
			files = append(files, filepath.Join(f[0], name))
		}
	}
	if len(files) == 0 {
		return nil, errors.New("go list ./wasm/worker: no Go files")
	}
	return files, nil
}

// Root returns the repository root: the nearest parent of dir that holds
// go.mod.
func Root(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}

// Server is a running workerd process serving the Worker on URL.
type Server struct {
	URL string // http://127.0.0.1:PORT, no trailing slash
	cmd *exec.Cmd
	log *syncBuffer
	// exited is closed when the process has exited; err is its Wait error.
	exited chan struct{}
	err    error
	stop   sync.Once
}

// Start starts `workerd serve --experimental wasm/worker/workerd.capnp` in root
// on a free port of 127.0.0.1 (the socket is opened here and handed to
// workerd, so no other process can take the port in between) and returns
// once it answers a request, or an error with workerd's output after
// timeout.
func Start(ctx context.Context, root string, timeout time.Duration) (*Server, error) {
	if err := Check(root); err != nil {
		return nil, err
	}
	return StartConfig(ctx, root, Config, timeout)
}

// StartConfig is Start with another workerd configuration (a path relative
// to root, or absolute), without the checks of the bundle: `make bench`
// serves a bare handler this way.
func StartConfig(ctx context.Context, root, config string, timeout time.Duration) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f, err := ln.(*net.TCPListener).File()
	ln.Close() // the duplicate f keeps the socket open
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := &Server{
		URL:    "http://" + ln.Addr().String(),
		log:    &syncBuffer{},
		exited: make(chan struct{}),
	}
	// ExtraFiles[0] is descriptor 3 in the child.
	s.cmd = exec.Command(Binary(root), "serve", "--experimental", config, "--socket-fd", "http=3")
	s.cmd.Dir = root
	s.cmd.ExtraFiles = []*os.File{f}
	s.cmd.SysProcAttr = procAttr()
	s.cmd.Stdout = s.log
	s.cmd.Stderr = s.log
	// The parent-death signal follows the thread that starts the child:
	// keep this goroutine on its thread while it does.
	runtime.LockOSThread()
	err = s.cmd.Start()
	runtime.UnlockOSThread()
	if err != nil {
		return nil, err
	}
	go func() {
		s.err = s.cmd.Wait()
		close(s.exited)
	}()
	if err := s.waitReady(ctx, timeout); err != nil {
		s.Stop()
		return nil, fmt.Errorf("workerd did not start: %v\n%s", err, s.Log())
	}
	return s, nil
}

// waitReady sends GET / until workerd answers it.
func (s *Server) waitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: timeout}
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/", nil)
		res, err := client.Do(req)
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return nil
		}
		select {
		case <-s.exited:
			return fmt.Errorf("workerd exited: %v", s.err)
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// PID returns the process id of workerd.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Log returns what workerd wrote to stdout and stderr so far.
func (s *Server) Log() string { return s.log.String() }

// CPU returns the CPU time (user and system, all threads) the workerd
// process has used so far, read from /proc/PID/stat (Linux), in steps of
// the kernel's clock tick (10 ms at USER_HZ 100).
func (s *Server) CPU() (time.Duration, error) { return CPU(s.PID()) }

// CPU returns the CPU time process pid has used (Linux).
func CPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	d, err := parseStatCPU(b)
	if err != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %v", pid, err)
	}
	return d, nil
}

// parseStatCPU reads utime and stime (fields 14 and 15, in clock ticks of
// 1/100 s, Linux's USER_HZ) of a /proc/PID/stat; the command name, field
// 2, is in parentheses and may hold spaces.
func parseStatCPU(stat []byte) (time.Duration, error) {
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("no command name")
	}
	f := strings.Fields(s[i+1:]) // from field 3 on
	if len(f) < 13 {
		return 0, errors.New("too few fields")
	}
	var ticks int64
	for _, x := range f[11:13] {
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("malformed field %q", x)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// RSS returns the resident set size of the workerd process in bytes, read
// from /proc/PID/status (Linux).
func (s *Server) RSS() (int64, error) { return RSS(s.PID()) }

// RSS returns the resident set size of process pid in bytes (Linux).
func RSS(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	n, err := parseVmRSS(b)
	if err != nil {
		return 0, fmt.Errorf("/proc/%d/status: %v", pid, err)
	}
	return n, nil
}

// parseVmRSS reads the "VmRSS:   123456 kB" line of a /proc/PID/status.
func parseVmRSS(status []byte) (int64, error) {
	for _, line := range strings.Split(string(status), "\n") {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("malformed line %q", line)
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb < 0 || kb > 1<<40 {
			return 0, fmt.Errorf("malformed line %q", line)
		}
		return kb * 1024, nil
	}
	return 0, errors.New("no VmRSS line")
}

// Stop ends workerd: SIGTERM to its process id, then SIGKILL if it has not
// exited within 5 seconds. It returns once the process is gone, and is safe
// to call more than once.
func (s *Server) Stop() {
	s.stop.Do(func() {
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(5 * time.Second):
			s.cmd.Process.Kill()
			<-s.exited
		}
	})
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a child
// process's stdout and stderr, bounded to its last 64 KiB.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b.Write(p)
	if b.b.Len() > 64<<10 {
		b.b.Next(b.b.Len() - 32<<10)
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
