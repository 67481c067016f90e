package native

/*
#include "glue.h"
*/
import "C"

import (
	"errors"
	"runtime/cgo"
	"time"
)

// errEnvGone is a stream whose environment went away before it ended.
var errEnvGone = errors.New("the JavaScript environment has gone away")

// Stream runs work on a goroutine, off the JS thread, and returns a Promise. work hands its
// result over in parts through emit: a part's Settler builds a value on the JS thread, and
// the JavaScript function onPart is called with it. At most MaxPartsInFlight parts are
// handed over and not yet taken, and the parts the JS thread works through in one
// event-loop turn are bounded by chainBudget; work meanwhile prepares the next part. The
// Promise resolves (with undefined) when work returns nil, and rejects with the error of
// work, of a Settler, or of onPart otherwise.
func (c *Call) Stream(onPart Value, work func(emit func(Settler) error) error) (Value, error) {
	if c.typeOf(onPart) != C.napi_function {
		return Value{}, &TypeError{Arg: "onPart", Want: "a function"}
	}
	deferred, promise, guard, tsfn, err := c.promiseAndTSFN(onPart.raw)
	if err != nil {
		return Value{}, err
	}
	go func() {
		st := &streamState{taken: make(chan struct{}, MaxPartsInFlight)}
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

// MaxPartsInFlight is how many parts of a stream may be handed over and not yet taken by
// JavaScript. Two, not one: with one, the JS thread, done with a part, waited for the
// producer to wake up and hand over the next, two thread wake-ups per part and about 200
// parts per 2,000-message restore; with two, the next part is queued while the JS thread
// works on the one before (bench/README.md, issue 16 round 6).
const MaxPartsInFlight = 2

// chainBudget bounds how long the JS thread works through a stream's parts without
// returning to the event loop. Node's thread-safe function runs what is queued, and what is
// queued while it runs, before it returns to the loop, so parts handed over while
// JavaScript is busy with another run in the same turn: a restore of 20,000 messages with
// two parts in flight and no bound kept the loop for most of its run (event-loop delay p99
// 9–15 ms against 4.4–7.5 ms with one part in flight). Once a chain of parts has run this
// long, the producer waits until every part is taken before it hands over the next. 250 µs,
// not 500: against one part in flight, 500 µs added 0.35–0.68 ms to that p99 and 250 µs
// 0.26–0.45 ms, for about the same wall time at 20,000 messages; 100 µs added the least
// (0.02–0.20 ms) but gave no wall time back (bench/README.md, issue 16 round 6).
const chainBudget = 250 * time.Microsecond

// streamState is shared by a stream's producer and its parts. taken, inFlight and
// chainStart belong to the producer; err is set and read on the JS thread only.
type streamState struct {
	taken      chan struct{}
	inFlight   int
	chainStart time.Time // when a part was last handed over with none in flight
	err        error
}

// emit waits until fewer than MaxPartsInFlight parts are in flight, or until none is when
// the current chain of parts has run for chainBudget, then hands s over.
func (st *streamState) emit(tsfn C.napi_threadsafe_function, guard *tsfnGuard, s Settler) error {
	drain := st.inFlight > 0 && time.Since(st.chainStart) > chainBudget
	for st.inFlight == MaxPartsInFlight || (drain && st.inFlight > 0) {
		select {
		case <-st.taken:
			st.inFlight--
		case <-guard.gone:
			return errEnvGone
		}
	}
	if st.inFlight == 0 {
		st.chainStart = time.Now()
	}
	h := cgo.NewHandle(&streamPart{settle: s, state: st})
	if !guard.call(tsfn, h, false) {
		h.Delete()
		return errEnvGone
	}
	st.inFlight++
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
