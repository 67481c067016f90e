package native

/*
#include "glue.h"
*/
import "C"

import (
	"io"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// instance is the per-environment state: one for the main thread and one for each worker
// thread that loads the addon.
type instance struct {
	errorClass C.napi_ref // the SessionError constructor, set by the JS layer at load

	mu      sync.Mutex
	closers []io.Closer // closed when the environment exits, newest first
}

// instanceOf returns the state of env, set up by initModule.
func instanceOf(env C.napi_env) *instance {
	h := C.sk_get_instance_data(env)
	if h == 0 {
		return nil
	}
	return cgo.Handle(h).Value().(*instance)
}

// initModule sets up the environment's instance data and cleanup hook and fills exports
// with every registered function.
func initModule(env C.napi_env, exports C.napi_value) C.napi_value {
	inst := &instance{}
	h := cgo.NewHandle(inst)
	if C.sk_set_instance_data(env, C.uintptr_t(h)) != C.napi_ok ||
		C.sk_add_cleanup_hook(env, C.uintptr_t(h)) != C.napi_ok {
		throwPlain(env, "ADDON_INIT", "sessionkeep: could not set up the Node-API environment")
		return nil
	}
	for id, fn := range registry {
		var value C.napi_value
		name := fn.name
		cname := C.CString(name)
		status := C.sk_create_function(env, cname, C.size_t(len(name)), C.uintptr_t(id), &value)
		if status == C.napi_ok {
			status = C.napi_set_named_property(env, exports, cname, value)
		}
		C.free(unsafe.Pointer(cname))
		if status != C.napi_ok {
			throwPlain(env, "ADDON_INIT", "sessionkeep: could not export "+name)
			return nil
		}
	}
	releaseLoadPagesOnce.Do(releaseLoadPages)
	return exports
}

// releaseLoadPagesOnce runs releaseLoadPages for the first environment only: by the time a
// worker thread loads the addon, its pages are in use.
var releaseLoadPagesOnce sync.Once

// keepForCleanup registers c to be closed when the environment exits.
func (inst *instance) keepForCleanup(c io.Closer) {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	inst.closers = append(inst.closers, c)
}

// cleanup closes everything registered with keepForCleanup, newest first. Errors and
// panics are dropped: the environment is going away and nobody is left to tell, and a
// panic must not cross into C.
func (inst *instance) cleanup() {
	defer func() { _ = recover() }()
	inst.mu.Lock()
	closers := inst.closers
	inst.closers = nil
	inst.mu.Unlock()
	for i := len(closers) - 1; i >= 0; i-- {
		_ = closers[i].Close()
	}
}

// forget removes c from the objects closed at exit.
func (inst *instance) forget(c io.Closer) {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	for i, kept := range inst.closers {
		if kept == c {
			inst.closers = append(inst.closers[:i], inst.closers[i+1:]...)
			return
		}
	}
}
