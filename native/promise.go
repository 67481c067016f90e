package native

/*
#include "glue.h"
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"sync"
)

// Settler builds the value a Promise resolves with. It runs on the JS thread, after the
// work that produced its data has finished on a goroutine.
type Settler func(s *Scope) (Value, error)

// pending is one Promise whose work is running or done.
type pending struct {
	deferred C.napi_deferred
	settle   Settler
	err      error
}

// Promise runs work on a goroutine, off the JS thread, and returns a Promise that settles
// with its result: work's Settler builds the resolved value on the JS thread, and an error
// from either rejects the Promise with the mapped JavaScript error. A thread-safe function
// carries the result back and keeps the event loop alive until it has.
func (c *Call) Promise(work func() (Settler, error)) (Value, error) {
	return c.start(nil, func(func(string)) (Settler, error) { return work() })
}

// start runs work on a goroutine and returns the Promise of its result; work's reports go
// to the JavaScript function onReport, which may be nil (see ProgressPromise).
func (c *Call) start(onReport C.napi_value, work func(report func(string)) (Settler, error)) (Value, error) {
	deferred, promise, guard, tsfn, err := c.promiseAndTSFN(onReport)
	if err != nil {
		return Value{}, err
	}
	go func() {
		reports := &reportSlot{tsfn: tsfn, guard: guard}
		p := &pending{deferred: deferred}
		p.settle, p.err = runRecovered(func() (Settler, error) { return work(reports.report) })
		h := cgo.NewHandle(p)
		if !guard.call(tsfn, h, true) {
			h.Delete() // the environment is shutting down; nobody awaits the result
		}
	}()
	return Value{promise}, nil
}

// promiseAndTSFN creates a Promise and the thread-safe function through which a goroutine
// settles it, calling fn (which may be nil) on the way with what it reports.
func (c *Call) promiseAndTSFN(fn C.napi_value) (C.napi_deferred, C.napi_value, *tsfnGuard, C.napi_threadsafe_function, error) {
	var deferred C.napi_deferred
	var promise C.napi_value
	if err := c.check(C.napi_create_promise(c.env, &deferred, &promise)); err != nil {
		return nil, nil, nil, nil, err
	}
	guard := &tsfnGuard{gone: make(chan struct{})}
	gh := cgo.NewHandle(guard)
	var tsfn C.napi_threadsafe_function
	if err := c.check(C.sk_create_tsfn(c.env, fn, c.String("sessionkeep").raw, C.uintptr_t(gh), &tsfn)); err != nil {
		gh.Delete()
		return nil, nil, nil, nil, err
	}
	return deferred, promise, guard, tsfn, nil
}

// tsfnGuard knows whether a thread-safe function still exists. Node frees one when its
// environment is torn down (a worker thread terminated) even while a goroutine still
// holds it; the finalizer marks the guard first, under the lock the goroutine holds while
// it calls, so the goroutine never touches freed memory.
type tsfnGuard struct {
	mu        sync.Mutex
	finalized bool
	gone      chan struct{} // closed when finalized
}

// call hands h to the JS thread through tsfn, unless tsfn is gone; it reports success.
// The last call releases the calling thread's hold on tsfn.
func (g *tsfnGuard) call(tsfn C.napi_threadsafe_function, h cgo.Handle, last bool) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.finalized {
		return false
	}
	if last {
		return C.sk_call_tsfn(tsfn, C.uintptr_t(h)) == C.napi_ok
	}
	return C.sk_call_tsfn_again(tsfn, C.uintptr_t(h)) == C.napi_ok
}

// tsfnFinalized marks the guard behind h: its thread-safe function is being freed.
func tsfnFinalized(h cgo.Handle) {
	g := h.Value().(*tsfnGuard)
	h.Delete()
	g.mu.Lock()
	g.finalized = true
	close(g.gone)
	g.mu.Unlock()
}

// runRecovered runs work and turns a panic into an ErrInternal error.
func runRecovered(work func() (Settler, error)) (settle Settler, err error) {
	defer func() {
		if r := recover(); r != nil {
			settle, err = nil, fmt.Errorf("%w: async work panicked: %v", ErrInternal, r)
		}
	}()
	return work()
}

// deliver runs on the JS thread for each item a goroutine handed over: a report for
// jsCallback, or the result that settles a Promise. A panic stops here, short of C.
func deliver(env C.napi_env, jsCallback C.napi_value, h cgo.Handle) {
	defer func() { _ = recover() }()
	switch v := h.Value().(type) {
	case *reportSlot:
		h.Delete()
		v.deliver(env, jsCallback)
	case *pending:
		h.Delete()
		v.settleIn(env)
	case *streamPart:
		h.Delete()
		v.deliver(env, jsCallback)
	case *streamEnd:
		h.Delete()
		v.settleIn(env)
	}
}

// settleIn resolves or rejects the Promise on the JS thread. env is nil when the
// environment is being torn down, and then there is nothing left to settle.
func (p *pending) settleIn(env C.napi_env) {
	if env == nil {
		return
	}
	s := Scope{env: env}
	err := p.err
	var v Value
	if err == nil {
		v, err = p.build(&s)
	}
	if err != nil {
		C.napi_reject_deferred(env, p.deferred, s.errorValue(err).raw)
		return
	}
	C.napi_resolve_deferred(env, p.deferred, v.raw)
}

// build runs the Settler, turning a panic into an error.
func (p *pending) build(s *Scope) (v Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: settling a promise panicked: %v", ErrInternal, r)
		}
	}()
	return p.settle(s)
}
