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
	var deferred C.napi_deferred
	var promise C.napi_value
	if err := c.check(C.napi_create_promise(c.env, &deferred, &promise)); err != nil {
		return Value{}, err
	}
	tsfn, guard, err := c.newTsfn(Value{})
	if err != nil {
		return Value{}, err
	}
	go func() {
		p := &pending{deferred: deferred}
		p.settle, p.err = runRecovered(work)
		h := cgo.NewHandle(p)
		if !guard.call(tsfn, h) {
			h.Delete() // the environment is shutting down; nobody awaits the result
		}
	}()
	return Value{promise}, nil
}

// newTsfn creates a thread-safe function that calls fn (none when fn is the zero Value),
// with its guard.
func (c *Call) newTsfn(fn Value) (C.napi_threadsafe_function, *tsfnGuard, error) {
	guard := &tsfnGuard{gone: make(chan struct{})}
	gh := cgo.NewHandle(guard)
	var tsfn C.napi_threadsafe_function
	if err := c.check(C.sk_create_tsfn(c.env, fn.raw, c.String("sessionkeep").raw, C.uintptr_t(gh), &tsfn)); err != nil {
		gh.Delete()
		return nil, nil, err
	}
	return tsfn, guard, nil
}

// tsfnItem is what a thread-safe function carries to the JS thread. run is called there
// with the function's JS callback, or with a nil env when the environment is being torn
// down and nothing can be done but let go.
type tsfnItem interface {
	run(env C.napi_env, jsCb Value)
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

// call hands h to the JS thread through tsfn, unless tsfn is gone, and lets go of tsfn; it
// reports success.
func (g *tsfnGuard) call(tsfn C.napi_threadsafe_function, h cgo.Handle) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.finalized && C.sk_call_tsfn(tsfn, C.uintptr_t(h)) == C.napi_ok
}

// callKeep hands h to the JS thread through tsfn, unless tsfn is gone, keeping hold of
// tsfn for more; it reports success.
func (g *tsfnGuard) callKeep(tsfn C.napi_threadsafe_function, h cgo.Handle) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.finalized && C.sk_call_tsfn_keep(tsfn, C.uintptr_t(h)) == C.napi_ok
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

// settle runs the item behind h on the JS thread.
func settle(env C.napi_env, jsCb Value, h cgo.Handle) {
	item := h.Value().(tsfnItem)
	h.Delete()
	item.run(env, jsCb)
}

// run resolves or rejects the Promise on the JS thread. env is nil when the environment is
// being torn down, and then there is nothing left to settle.
func (p *pending) run(env C.napi_env, _ Value) {
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
