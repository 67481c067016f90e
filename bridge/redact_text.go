package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session/redact"
)

// Redacting a document on its way out (sessionkeep export --redact): the same patterns a
// store applies to what it records, applied to every string of a JSON value.
func init() {
	native.Register("redactJSONText", redactJSONText)
}

// redactJSONText(json: string, redactJSON: string) -> json with the secrets in its string
// values replaced, by the patterns redactJSON chooses (ts/redact.ts).
func redactJSONText(c *native.Call) (native.Value, error) {
	doc, err := c.StringArg(0, "json")
	if err != nil {
		return native.Value{}, err
	}
	var opts redact.Options
	if err := decodeArg(c, 1, "redact", &opts); err != nil {
		return native.Value{}, err
	}
	r, err := redact.New(opts)
	if err != nil {
		return native.Value{}, err
	}
	out, _ := r.JSON([]byte(doc))
	return c.StringFromBytes(out), nil
}
