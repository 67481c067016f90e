package sqlite

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// processOwner names this process on the sessions it writes: host, pid and the process's
// start time, so that a reused pid is not taken for a live writer.
func processOwner() string {
	host, _ := os.Hostname()
	pid := os.Getpid()
	return fmt.Sprintf("%s:%d:%s", host, pid, startTime(pid))
}

// ownerAlive reports whether the process named by owner may still be writing. Only a
// process on this host can be checked; any other is assumed alive, so that its streaming
// messages are never marked interrupted by mistake.
func ownerAlive(owner string) bool {
	parts := strings.Split(owner, ":")
	if len(parts) != 3 {
		return false
	}
	host, _ := os.Hostname()
	if parts[0] != host {
		return true
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil {
		return false
	}
	if started := startTime(pid); started != "" || parts[2] != "" {
		return started == parts[2]
	}
	return processExists(pid)
}

// startTime returns the start time of process pid from /proc (field 22 of its stat), or
// "" where /proc is not there or the process is gone.
func startTime(pid int) string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	end := strings.LastIndexByte(string(stat), ')')
	if end < 0 {
		return ""
	}
	fields := strings.Fields(string(stat[end+1:]))
	if len(fields) < 20 {
		return ""
	}
	return fields[19]
}
