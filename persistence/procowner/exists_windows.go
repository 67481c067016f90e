package procowner

import "os"

// processExists reports whether a process with this pid runs: on Windows FindProcess opens
// the process and fails when there is none.
func processExists(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
