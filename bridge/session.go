package bridge

import (
	"fmt"
	"sync"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

func init() {
	native.Register("sessionClose", sessionClose)
	native.Register("appendUserMessage", appendUserMessage)
	native.Register("setContext", setContext)
	native.Register("messages", messagesSync(false))
	native.Register("envelopes", messagesSync(true))
	native.Register("messagesAsync", messagesAsync(false))
	native.Register("envelopesAsync", messagesAsync(true))
	native.Register("restoreMessages", restoreMessages)
	native.Register("turns", turns)
	native.Register("tokenTracker", tokenTracker)
	native.Register("restoreTokenTracker", restoreTokenTracker)
	native.Register("flush", flush)
}

// sessionClose(session)
func sessionClose(c *native.Call) (native.Value, error) {
	r, err := sessionRefArg(c)
	if err != nil {
		return native.Value{}, err
	}
	r.close()
	return c.Undefined(), nil
}

// largeStringUnits holds the buffers appendUserMessage reads large strings into, kept
// between calls: a tool result's output is tens of KB of code units each time.
var largeStringUnits = sync.Pool{New: func() any { return new([]uint16) }}

// appendUserMessage(session, contentJSON, optionsJSON?, largeStrings?) -> JSON of the
// envelope without its message, which the JS layer has: crossing back a large tool output
// only to parse it again would cost more than recording it. When redaction changed the
// message, the envelope holds it as stored, since the JS layer's copy has the secrets.
func appendUserMessage(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	content, err := c.StringArg(1, "content")
	if err != nil {
		return native.Value{}, err
	}
	options, _, err := c.OptStringArg(2, "options")
	if err != nil {
		return native.Value{}, err
	}
	opts, err := session.ParseMessageOptions([]byte(options))
	if err != nil {
		return native.Value{}, fmt.Errorf("%w: %v", session.ErrInvalidArgument, err)
	}
	var large jsonenc.LargeStrings
	if v := c.Arg(3); !c.IsNullish(v) {
		buf := largeStringUnits.Get().(*[]uint16)
		defer largeStringUnits.Put(buf)
		strs, grown, ok := c.ReadStrings16(v, *buf)
		*buf = grown
		if !ok {
			return native.Value{}, &native.TypeError{Arg: "largeStrings", Want: "an array of strings"}
		}
		large = strs
	}
	// AddUserMessage copies the large strings into the message's JSON (Splice), so the
	// units' buffer is free for the next call once it returns.
	m, redacted, err := s.AddUserMessageRedacted([]byte(content), large, opts)
	if err != nil {
		return native.Value{}, err
	}
	if redacted { // JavaScript has the content as given: the message as stored goes with it
		return c.StringFromBytes(session.AppendEnvelope(nil, &m)), nil
	}
	return c.StringFromBytes(session.AppendEnvelopeFields(nil, &m)), nil
}

// setContext(session, contextJSON?): the context of the messages that follow; undefined
// or "null" clears it.
func setContext(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	context, _, err := c.OptStringArg(1, "context")
	if err != nil {
		return native.Value{}, err
	}
	return c.Undefined(), s.SetContext([]byte(context))
}

// messages(session) / envelopes(session) -> JSON arrays of messages (see readSync)
func messagesSync(withEnvelope bool) native.Func {
	return func(c *native.Call) (native.Value, error) {
		s, err := sessionArg(c)
		if err != nil {
			return native.Value{}, err
		}
		return readSync(c, s, withEnvelope, -1)
	}
}

// messagesAsync(session, onPart) / envelopesAsync(session, onPart) -> Promise<void>, read
// off the JS thread and passed to onPart in parts (see readStream).
func messagesAsync(withEnvelope bool) native.Func {
	return func(c *native.Call) (native.Value, error) {
		s, err := sessionArg(c)
		if err != nil {
			return native.Value{}, err
		}
		return readStream(c, s, withEnvelope, -1, c.Arg(1))
	}
}

// restoreMessages(session, messagesJSON)
func restoreMessages(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	msgs, err := c.StringArg(1, "messages")
	if err != nil {
		return native.Value{}, err
	}
	return c.Undefined(), s.RestoreMessages([]byte(msgs))
}

// turns(session) -> JSON of Turn[]
func turns(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	t, err := s.Turns()
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, t)
}

// tokenTracker(session) -> JSON of the TokenTracker
func tokenTracker(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	t, err := s.TokenTracker()
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, t)
}

// restoreTokenTracker(session, trackerJSON)
func restoreTokenTracker(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	var t session.TokenTracker
	if err := decodeArg(c, 1, "tracker", &t); err != nil {
		return native.Value{}, err
	}
	return c.Undefined(), s.RestoreTokenTracker(t)
}

// flush(session) -> Promise<void>: everything ingested so far is durable.
func flush(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		return undefinedSettler, s.Flush()
	})
}
