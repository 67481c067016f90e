// Package procowner names a process on what it writes (host, pid and start time, so that a
// reused pid is not taken for a live writer) and tells, from such a name, whether that
// process may still be writing: how the SQLite store finds the streaming messages of a
// writer that died.
package procowner

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Self names this process on the sessions it writes: host, pid and the process's start
// time, so that a reused pid is not taken for a live writer.
func Self() string {
	host, _ := os.Hostname()
	pid := os.Getpid()
	return fmt.Sprintf("%s:%d:%s", host, pid, startTime(pid))
}

// Alive reports whether the process named by owner (Self) may still be writing. Only a
// process on this host can be checked; any other is assumed alive, so that its streaming
// messages are never marked interrupted by mistake.
func Alive(owner string) bool {
	host, pidText, start, ok := splitOwner(owner)
	if !ok {
		return false
	}
	if thisHost, _ := os.Hostname(); host != thisHost {
		return true
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil {
		return false
	}
	if started := startTime(pid); started != "" || start != "" {
		return started == start
	}
	return processExists(pid)
}

// Describe turns a session's owner into words for an error message.
func Describe(owner string) string {
	host, pid, _, ok := splitOwner(owner)
	if !ok {
		return owner
	}
	return "pid " + pid + " on " + host
}

// splitOwner splits an owner written by Self into its parts; ok is false for one
// of another shape.
func splitOwner(owner string) (host, pid, start string, ok bool) {
	parts := strings.Split(owner, ":")
	if len(parts) != 3 {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
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
