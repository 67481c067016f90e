package procowner

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestAlive tells this process, its parent, a reused pid, a gone pid and other hosts apart.
func TestAlive(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	me := Self()
	parts := strings.Split(me, ":")
	if len(parts) != 3 || parts[0] != host || parts[1] != fmt.Sprint(os.Getpid()) {
		t.Fatalf("Self() = %q, want host:pid:start", me)
	}
	cases := []struct {
		owner string
		alive bool
	}{
		{me, true},
		{host + ":999999:123", false}, // no such pid
		{fmt.Sprintf("%s:%d:%s", host, os.Getpid(), "1"), false},                     // pid reused by another process
		{fmt.Sprintf("%s:%d:%s", host, os.Getppid(), startTime(os.Getppid())), true}, // the parent, alive
		{"elsewhere.example:1:1", true},                                              // cannot check: assumed alive
		{"", false},
		{"garbage", false},
		{host + ":notapid:1", false},
	}
	for _, c := range cases {
		if got := Alive(c.owner); got != c.alive {
			t.Errorf("Alive(%q) = %v, want %v", c.owner, got, c.alive)
		}
	}
}
