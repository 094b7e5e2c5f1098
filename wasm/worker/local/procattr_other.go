//go:build !linux

package local

import "syscall"

// procAttr has nothing to add outside Linux (no parent-death signal): Stop
// ends workerd.
func procAttr() *syscall.SysProcAttr { return nil }
