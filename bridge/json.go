package bridge

import (
	"fmt"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// decodeArg decodes argument i, a JSON string the JS layer serialised, into v; undefined
// leaves v as it is.
func decodeArg(c *native.Call, i int, name string, v any) error {
	text, present, err := c.OptStringArg(i, name)
	if err != nil || !present {
		return err
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return fmt.Errorf("%w: %s: %v", session.ErrInvalidArgument, name, err)
	}
	return nil
}

// jsonResult encodes v as JSON for the JS layer to parse.
func jsonResult(c *native.Call, v any) (native.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return native.Value{}, err
	}
	return c.StringFromBytes(b), nil
}

// jsonSettler resolves a Promise with v encoded as JSON off the JS thread, unless err
// rejects it.
func jsonSettler(v any, err error) (native.Settler, error) {
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	return func(sc *native.Scope) (native.Value, error) { return sc.StringFromBytes(b), nil }, err
}
