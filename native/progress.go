package native

/*
#include "glue.h"
*/
import "C"

import (
	"runtime/cgo"
	"sync"
)

// ProgressPromise is Promise for work that reports how far it has come: each report(text)
// calls the JavaScript function onReport (argument i, a function, or undefined to drop the
// reports) with the string text, on the JS thread. Reports are coalesced: while one waits
// for the JS thread, a newer one replaces it, so a busy thread gets the latest and never a
// backlog. Every report made before work returns is delivered before the Promise settles.
// onReport must not throw: an exception it leaves is cleared, since no JavaScript frame is
// there to catch it.
func (c *Call) ProgressPromise(i int, name string, work func(report func(string)) (Settler, error)) (Value, error) {
	v := c.Arg(i)
	var onReport C.napi_value
	switch {
	case c.typeOf(v) == C.napi_function:
		onReport = v.raw
	case !c.IsNullish(v):
		return Value{}, &TypeError{Arg: name, Want: "a function or undefined"}
	}
	return c.start(onReport, work)
}

// reportSlot holds the latest report of one Promise's work until the JS thread takes it.
type reportSlot struct {
	tsfn  C.napi_threadsafe_function
	guard *tsfnGuard

	mu     sync.Mutex
	latest string
	queued bool // a delivery is on its way to the JS thread and will take latest
}

// report makes text the latest report and makes sure a delivery is on its way.
func (r *reportSlot) report(text string) {
	r.mu.Lock()
	r.latest = text
	if r.queued {
		r.mu.Unlock()
		return
	}
	r.queued = true
	r.mu.Unlock()
	h := cgo.NewHandle(r)
	if !r.guard.call(r.tsfn, h, false) {
		h.Delete()
	}
}

// deliver calls the JavaScript callback with the latest report, on the JS thread.
func (r *reportSlot) deliver(env C.napi_env, callback C.napi_value) {
	r.mu.Lock()
	text := r.latest
	r.queued = false
	r.mu.Unlock()
	if env == nil || callback == nil {
		return
	}
	s := Scope{env: env}
	var recv C.napi_value
	C.napi_get_undefined(env, &recv)
	arg := s.String(text).raw
	if C.napi_call_function(env, recv, callback, 1, &arg, nil) != C.napi_ok {
		var exc C.napi_value
		C.napi_get_and_clear_last_exception(env, &exc)
	}
}
