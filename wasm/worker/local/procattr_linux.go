package local

import "syscall"

// procAttr makes the kernel send workerd SIGTERM if the process that
// started it dies first (a test binary killed by its timeout, a broken
// pipe), so that no workerd outlives its test.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
