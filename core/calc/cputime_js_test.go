//go:build js && wasm

package calc

import (
	"syscall/js"
	"time"
)

// cpuTime is the CPU time of the process so far, user and system, as
// Node reports it (process.cpuUsage, in µs): the benchmark's clock when
// it runs as WebAssembly in V8, the engine of workerd.
func cpuTime() time.Duration {
	u := js.Global().Get("process").Call("cpuUsage")
	return time.Duration(u.Get("user").Int()+u.Get("system").Int()) * time.Microsecond
}
