package bridge

import (
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"sync"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// The CPU profile of the addon's Go code inside a running Node process, for bench/ and for
// whoever must find where an app's time goes: __startCPUProfile(path) starts
// runtime/pprof writing to path, and __stopCPUProfile() (or the environment's exit) stops it.
// Read the file with `go tool pprof build/Release/sessionkeep.node path`. Not part of the
// public API: the JS package does not export it.
func init() {
	native.Register("__startCPUProfile", startCPUProfile)
	native.Register("__stopCPUProfile", stopCPUProfile)
}

// cpuProfile is the profile being written, if any; Go has one CPU profiler per process.
var cpuProfile struct {
	mu   sync.Mutex
	file *os.File
}

// profileStopper stops the profile when the environment exits.
type profileStopper struct{}

func (profileStopper) Close() error { return stopProfile() }

func startCPUProfile(c *native.Call) (native.Value, error) {
	path, err := c.StringArg(0, "path")
	if err != nil {
		return native.Value{}, err
	}
	cpuProfile.mu.Lock()
	defer cpuProfile.mu.Unlock()
	if cpuProfile.file != nil {
		return native.Value{}, fmt.Errorf("%w: a CPU profile is already being written", session.ErrInvalidArgument)
	}
	f, err := os.Create(path)
	if err != nil {
		return native.Value{}, fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return native.Value{}, fmt.Errorf("%w: %v", session.ErrInvalidArgument, err)
	}
	cpuProfile.file = f
	c.CloseAtExit(profileStopper{})
	return c.Undefined(), nil
}

func stopCPUProfile(c *native.Call) (native.Value, error) {
	c.ForgetAtExit(profileStopper{})
	return c.Undefined(), stopProfile()
}

// stopProfile stops the profile being written and closes its file; without one it does
// nothing.
func stopProfile() error {
	cpuProfile.mu.Lock()
	defer cpuProfile.mu.Unlock()
	if cpuProfile.file == nil {
		return nil
	}
	pprof.StopCPUProfile()
	err := cpuProfile.file.Close()
	cpuProfile.file = nil
	if err != nil {
		return errors.Join(session.ErrFileAccess, err)
	}
	return nil
}
