package bridge

import (
	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/native"
)

// storeQuery returns the exported function name(store, optionsJSON?) -> JSON of what run
// returns, or a Promise of it, computed off the JS thread, when async.
func storeQuery[Q any](run func(h *storeHandle, q Q) (any, error), async bool) native.Func {
	return func(c *native.Call) (native.Value, error) {
		h, err := storeArg(c)
		if err != nil {
			return native.Value{}, err
		}
		var q Q
		if err := decodeArg(c, 1, "options", &q); err != nil {
			return native.Value{}, err
		}
		if async {
			return jsonPromise(c, func() (any, error) { return run(h, q) })
		}
		result, err := run(h, q)
		if err != nil {
			return native.Value{}, err
		}
		return jsonResult(c, result)
	}
}

// jsonPromise runs work off the JS thread and resolves with its result as JSON.
func jsonPromise(c *native.Call, work func() (any, error)) (native.Value, error) {
	return c.Promise(func() (native.Settler, error) {
		v, err := work()
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(v)
		return func(s *native.Scope) (native.Value, error) { return s.StringFromBytes(b), nil }, err
	})
}
