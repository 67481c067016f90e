package native

/*
#include "glue.h"
*/
import "C"

import (
	"errors"
	"runtime/cgo"
)

// errEnvGone is a stream whose environment went away before it ended.
var errEnvGone = errors.New("the JavaScript environment has gone away")

// Stream runs work on a goroutine, off the JS thread, and returns a Promise. work hands its
// result over in parts through emit: a part's Settler builds a value on the JS thread, and
// the JavaScript function onPart is called with it. A part is handed over only once the
// one before it has been taken, so that each part gets an event-loop turn of its own and
// the JS thread never has a backlog to work through at once; work meanwhile prepares the
// next part. The Promise resolves (with undefined) when work returns nil, and rejects with
// the error of work, of a Settler, or of onPart otherwise.
func (c *Call) Stream(onPart Value, work func(emit func(Settler) error) error) (Value, error) {
	if c.typeOf(onPart) != C.napi_function {
		return Value{}, &TypeError{Arg: "onPart", Want: "a function"}
	}
	deferred, promise, guard, tsfn, err := c.promiseAndTSFN(onPart.raw)
	if err != nil {
		return Value{}, err
	}
	go func() {
		st := &streamState{taken: make(chan struct{}, 1)}
		end := &streamEnd{pending: pending{deferred: deferred}, state: st}
		end.settle, end.err = runRecovered(func() (Settler, error) {
			return undefinedValue, work(func(s Settler) error { return st.emit(tsfn, guard, s) })
		})
		h := cgo.NewHandle(end)
		if !guard.call(tsfn, h, true) {
			h.Delete()
		}
	}()
	return Value{promise}, nil
}

func undefinedValue(s *Scope) (Value, error) { return s.Undefined(), nil }

// streamState is shared by a stream's producer and its parts. taken and inFlight belong to
// the producer; err is set and read on the JS thread only.
type streamState struct {
	taken    chan struct{}
	inFlight bool
	err      error
}

// emit waits until the part in flight, if any, has been taken, then hands s over.
func (st *streamState) emit(tsfn C.napi_threadsafe_function, guard *tsfnGuard, s Settler) error {
	if st.inFlight {
		select {
		case <-st.taken:
		case <-guard.gone:
			return errEnvGone
		}
	}
	h := cgo.NewHandle(&streamPart{settle: s, state: st})
	if !guard.call(tsfn, h, false) {
		h.Delete()
		return errEnvGone
	}
	st.inFlight = true
	return nil
}

// streamPart is one part of a stream on its way to the JS thread.
type streamPart struct {
	settle Settler
	state  *streamState
}

// deliver builds the part's value and passes it to the stream's JavaScript callback, on
// the JS thread. After a part has failed, the rest are dropped; the failure rejects the
// Promise.
func (p *streamPart) deliver(env C.napi_env, onPart C.napi_value) {
	if env == nil {
		return
	}
	if p.state.err == nil {
		s := Scope{env: env}
		pp := pending{settle: p.settle}
		v, err := pp.build(&s)
		if err == nil {
			err = s.call(Value{onPart}, v)
		}
		p.state.err = err
	}
	p.state.taken <- struct{}{}
}

// call calls the JavaScript function fn with v. An exception it throws is caught and
// returned as an error, so that it is not left pending in a thread-safe function's call.
func (s *Scope) call(fn, v Value) error {
	var result C.napi_value
	status := C.napi_call_function(s.env, s.Undefined().raw, fn.raw, 1, &v.raw, &result)
	if status == C.napi_ok {
		return nil
	}
	var exception C.napi_value
	C.napi_get_and_clear_last_exception(s.env, &exception)
	return errors.Join(ErrInternal, errors.New("a stream's callback failed"))
}

// streamEnd settles a stream's Promise after its last part.
type streamEnd struct {
	pending
	state *streamState
}

// settleIn settles the stream's Promise on the JS thread, with the error of a part that
// failed if work did not fail first.
func (e *streamEnd) settleIn(env C.napi_env) {
	if e.err == nil && e.state.err != nil {
		e.err = e.state.err
	}
	e.pending.settleIn(env)
}
