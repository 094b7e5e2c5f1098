// Package local runs the Cloudflare Worker of retrylab on the real workerd
// binary (pinned in package-lock.json) on a loopback port, with the static
// assets and the Go Worker wired as Cloudflare wires them
// (wasm/worker/workerd.capnp: two processes, the assets layer and the user
// Worker). Tests and `make bench` start it and stop it by its process ids;
// it needs no network.
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

// Server is the Worker served on URL by one or more running workerd
// processes.
type Server struct {
	URL   string // http://127.0.0.1:PORT, no trailing slash
	procs []*process
	stop  sync.Once
}

// process is one running workerd.
type process struct {
	name string // the configuration's constant
	cmd  *exec.Cmd
	log  *syncBuffer
	// exited is closed when the process has exited; err is its Wait error.
	exited chan struct{}
	err    error
}

// Start starts the Worker as wasm/worker/workerd.capnp lays it out: two
// workerd processes in root, `serve --experimental wasm/worker/workerd.capnp
// config` (the assets layer, on URL) and `... worker` (the user Worker:
// entry.mjs, the edge layer, Go), each on free ports of 127.0.0.1 (the
// sockets are opened here and handed to workerd, so no other process can
// take a port in between) and pointed at each other with --external-addr.
// workerd runs all of a process's isolates on one thread, so the user
// Worker in its own process computes without holding the assets layer's
// thread, as on Cloudflare, where the assets layer does not run in the
// user Worker's isolate. Start returns once both answer a request, or an
// error with workerd's output after timeout.
func Start(ctx context.Context, root string, timeout time.Duration) (*Server, error) {
	if err := Check(root); err != nil {
		return nil, err
	}
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	listen := func() (string, error) {
		f, addr, err := listenFile()
		if err == nil {
			files = append(files, f)
		}
		return addr, err
	}
	site, err := listen()
	if err != nil {
		return nil, err
	}
	assets, err := listen()
	if err != nil {
		return nil, err
	}
	app, err := listen()
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + site}
	// ExtraFiles[i] is descriptor 3+i in the child.
	if err := s.start(root, "config", []*os.File{files[0], files[1]}, "--socket-fd", "http=3", "--socket-fd", "assets=4", "--external-addr", "app="+app); err != nil {
		return nil, err
	}
	if err := s.start(root, "worker", []*os.File{files[2]}, "--socket-fd", "http=3", "--external-addr", "assets="+assets); err != nil {
		s.Stop()
		return nil, err
	}
	for _, u := range []string{s.URL, "http://" + app} {
		if err := s.waitReady(ctx, u, timeout); err != nil {
			s.Stop()
			return nil, fmt.Errorf("workerd did not start: %v\n%s", err, s.Log())
		}
	}
	return s, nil
}

// StartConfig starts one workerd process with another configuration (a
// path relative to root, or absolute; its constant `config`, one socket
// "http"), without the checks of the bundle: `make bench` serves a bare
// handler this way.
func StartConfig(ctx context.Context, root, config string, timeout time.Duration) (*Server, error) {
	f, addr, err := listenFile()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := &Server{URL: "http://" + addr}
	if err := s.startFile(root, config, "config", []*os.File{f}, "--socket-fd", "http=3"); err != nil {
		return nil, err
	}
	if err := s.waitReady(ctx, s.URL, timeout); err != nil {
		s.Stop()
		return nil, fmt.Errorf("workerd did not start: %v\n%s", err, s.Log())
	}
	return s, nil
}

// listenFile opens a listening socket on a free port of 127.0.0.1 and
// returns it as a file to hand to workerd, with its address.
func listenFile() (*os.File, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	f, err := ln.(*net.TCPListener).File()
	ln.Close() // the duplicate f keeps the socket open
	return f, ln.Addr().String(), err
}

// start starts workerd on Config's constant name.
func (s *Server) start(root, name string, files []*os.File, args ...string) error {
	return s.startFile(root, Config, name, files, args...)
}

func (s *Server) startFile(root, config, name string, files []*os.File, args ...string) error {
	p := &process{name: name, log: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd = exec.Command(Binary(root), append([]string{"serve", "--experimental", config, name}, args...)...)
	p.cmd.Dir = root
	p.cmd.ExtraFiles = files
	p.cmd.SysProcAttr = procAttr()
	p.cmd.Stdout = p.log
	p.cmd.Stderr = p.log
	// The parent-death signal follows the thread that starts the child:
	// keep this goroutine on its thread while it does.
	runtime.LockOSThread()
	err := p.cmd.Start()
	runtime.UnlockOSThread()
	if err != nil {
		return err
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	s.procs = append(s.procs, p)
	return nil
}

// waitReady sends GET url/ until workerd answers it.
func (s *Server) waitReady(ctx context.Context, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: timeout}
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", url+"/", nil)
		res, err := client.Do(req)
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return nil
		}
		for _, p := range s.procs {
			select {
			case <-p.exited:
				return fmt.Errorf("workerd (%s) exited: %v", p.name, p.err)
			default:
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// PIDs returns the process ids of the workerd processes.
func (s *Server) PIDs() []int {
	pids := make([]int, len(s.procs))
	for i, p := range s.procs {
		pids[i] = p.cmd.Process.Pid
	}
	return pids
}

// Log returns what the workerd processes wrote to stdout and stderr so
// far, each after a line naming it.
func (s *Server) Log() string {
	var b strings.Builder
	for _, p := range s.procs {
		fmt.Fprintf(&b, "--- workerd %s (pid %d)\n%s", p.name, p.cmd.Process.Pid, p.log.String())
	}
	return b.String()
}

// CPU returns the CPU time (user and system, all threads) the workerd
// processes have used so far, read from /proc/PID/stat (Linux), in steps
// of the kernel's clock tick (10 ms at USER_HZ 100).
func (s *Server) CPU() (time.Duration, error) {
	var sum time.Duration
	for _, pid := range s.PIDs() {
		d, err := CPU(pid)
		if err != nil {
			return 0, err
		}
		sum += d
	}
	return sum, nil
}

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

// PID returns the process id of the workerd process that runs the
// configuration constant name ("config", the assets layer; "worker", the
// user Worker: entry.mjs, the edge layer, Go), or 0 when there is none.
func (s *Server) PID(name string) int {
	for _, p := range s.procs {
		if p.name == name {
			return p.cmd.Process.Pid
		}
	}
	return 0
}

// Threads returns the CPU time each live thread of process pid has used
// so far, by thread id, in nanoseconds as the scheduler counts it (the
// first field of /proc/PID/task/TID/schedstat, Linux): exact, where CPU
// counts 10 ms ticks. A thread that has exited is no longer listed.
func Threads(pid int) (map[int]time.Duration, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make(map[int]time.Duration, len(ents))
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "schedstat"))
		if err != nil {
			continue // the thread exited
		}
		d, err := parseSchedstat(b)
		if err != nil {
			return nil, fmt.Errorf("%s/%d/schedstat: %v", dir, tid, err)
		}
		out[tid] = d
	}
	return out, nil
}

// parseSchedstat reads the first field of a /proc/.../schedstat: the
// time spent on a CPU, in nanoseconds.
func parseSchedstat(b []byte) (time.Duration, error) {
	f := strings.Fields(string(b))
	if len(f) != 3 {
		return 0, fmt.Errorf("malformed %q", b)
	}
	ns, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil || ns < 0 {
		return 0, fmt.Errorf("malformed %q", b)
	}
	return time.Duration(ns), nil
}

// RSS returns the resident set size of the workerd processes in bytes,
// summed, read from /proc/PID/status (Linux).
func (s *Server) RSS() (int64, error) {
	var sum int64
	for _, pid := range s.PIDs() {
		n, err := RSS(pid)
		if err != nil {
			return 0, err
		}
		sum += n
	}
	return sum, nil
}

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

// Stop ends the workerd processes: SIGTERM to each process id, then
// SIGKILL to one that has not exited within 5 seconds. It returns once the
// processes are gone, and is safe to call more than once.
func (s *Server) Stop() {
	s.stop.Do(func() {
		for _, p := range s.procs {
			p.cmd.Process.Signal(syscall.SIGTERM)
		}
		for _, p := range s.procs {
			select {
			case <-p.exited:
			case <-time.After(5 * time.Second):
				p.cmd.Process.Kill()
				<-p.exited
			}
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
