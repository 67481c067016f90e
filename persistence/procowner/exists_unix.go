//go:build !windows

package procowner

import (
	"errors"
	"syscall"
)

// processExists reports whether a process with this pid runs: signal 0 checks without
// sending anything, and EPERM means it runs as another user.
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
