package bridge

import (
	"fmt"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
)

// Context building and compaction. Options and results cross as JSON; everything that
// may read much of a session has a Promise form whose work runs off the JS thread. The
// summarizer is the caller's async function, so compaction is driven from JavaScript:
// these functions plan, hand over the messages of each summarizer call, and store results.
func init() {
	native.Register("buildContext", buildContext)
	native.Register("buildContextAsync", sessionJSONAsync(func(s *session.Session, arg []byte) (any, error) {
		var opts contextbuild.BuildOptions
		if err := decodeJSON(arg, "options", &opts); err != nil {
			return nil, err
		}
		return contextbuild.Build(s, opts)
	}))
	native.Register("validateContext", validateContext)
	native.Register("contextStrategies", func(c *native.Call) (native.Value, error) {
		return jsonResult(c, contextbuild.BuiltinStrategies())
	})
	native.Register("countContextTokens", countContextTokens)
	native.Register("debugContext", debugContext)
	native.Register("compactPlan", sessionJSONAsync(compactPlan))
	native.Register("summaryStep", sessionJSONAsync(summaryStep))
	native.Register("storeSummary", sessionJSONAsync(storeSummary))
	native.Register("commitCompaction", sessionJSONAsync(commitCompaction))
	native.Register("summaryCut", sessionJSONAsync(summaryCut))
}

// decodeJSON decodes an argument the JS layer serialised.
func decodeJSON(arg []byte, name string, v any) error {
	if err := json.Unmarshal(arg, v); err != nil {
		return fmt.Errorf("%w: %s: %v", session.ErrInvalidArgument, name, err)
	}
	return nil
}

// buildContext(session, optionsJSON) -> JSON of the ContextResult
func buildContext(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	var opts contextbuild.BuildOptions
	if err := decodeArg(c, 1, "options", &opts); err != nil {
		return native.Value{}, err
	}
	res, err := contextbuild.Build(s, opts)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, res)
}

// sessionJSONAsync returns fn(session, argJSON) -> Promise<JSON of its result>, the work
// off the JS thread.
func sessionJSONAsync(fn func(s *session.Session, arg []byte) (any, error)) native.Func {
	return func(c *native.Call) (native.Value, error) {
		s, err := sessionArg(c)
		if err != nil {
			return native.Value{}, err
		}
		arg, err := c.StringArg(1, "options")
		if err != nil {
			return native.Value{}, err
		}
		return c.Promise(func() (native.Settler, error) {
			res, err := fn(s, []byte(arg))
			if err != nil {
				return nil, err
			}
			b, err := json.Marshal(res)
			return func(sc *native.Scope) (native.Value, error) { return sc.StringFromBytes(b), nil }, err
		})
	}
}

// validateContext(messagesJSON, provider) -> JSON of the Validation
func validateContext(c *native.Call) (native.Value, error) {
	msgs, provider, err := messagesAndProvider(c)
	if err != nil {
		return native.Value{}, err
	}
	val, err := contextbuild.ValidateContext(msgs, provider)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, val)
}

// countContextTokens(messagesJSON, provider) -> JSON number: what the messages take in a context
func countContextTokens(c *native.Call) (native.Value, error) {
	msgs, provider, err := messagesAndProvider(c)
	if err != nil {
		return native.Value{}, err
	}
	n, err := contextbuild.CountContextTokens(msgs, provider)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, n)
}

// messagesAndProvider decodes the (messagesJSON, provider) arguments of the calls that take
// a context from JavaScript.
func messagesAndProvider(c *native.Call) ([]byte, string, error) {
	msgs, err := c.StringArg(0, "messages")
	if err != nil {
		return nil, "", err
	}
	provider, err := c.StringArg(1, "format")
	return []byte(msgs), provider, err
}

// debugContext(session) -> JSON of the last ContextReport, or "null"
func debugContext(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	r, err := contextbuild.DebugContext(s)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, r)
}

// compactPlan(session, optionsJSON) -> Promise<JSON of the CompactPlan>
func compactPlan(s *session.Session, arg []byte) (any, error) {
	var opts contextbuild.CompactOptions
	if err := decodeJSON(arg, "options", &opts); err != nil {
		return nil, err
	}
	return contextbuild.PlanCompaction(s, opts)
}

// summaryStep(session, {toSeq, ...SummaryOptions}) -> Promise<JSON of the next step, or null>
func summaryStep(s *session.Session, arg []byte) (any, error) {
	var opts struct {
		contextbuild.SummaryOptions
		ToSeq int64 `json:"toSeq"`
	}
	if err := decodeJSON(arg, "options", &opts); err != nil {
		return nil, err
	}
	return contextbuild.NextSummaryStep(s, opts.ToSeq, opts.SummaryOptions)
}

// storeSummary(session, {toSeq, text, model}) -> Promise<JSON of the Summary>
func storeSummary(s *session.Session, arg []byte) (any, error) {
	var in struct {
		ToSeq int64  `json:"toSeq"`
		Text  string `json:"text"`
		Model string `json:"model"`
	}
	if err := decodeJSON(arg, "summary", &in); err != nil {
		return nil, err
	}
	return contextbuild.StoreSummary(s, in.ToSeq, in.Text, in.Model)
}

// commitCompaction(session, {cutSeq, trigger}) -> Promise<JSON of the Compaction>
func commitCompaction(s *session.Session, arg []byte) (any, error) {
	var in struct {
		CutSeq  int64  `json:"cutSeq"`
		Trigger string `json:"trigger"`
	}
	if err := decodeJSON(arg, "compaction", &in); err != nil {
		return nil, err
	}
	return contextbuild.CommitCompaction(s, in.CutSeq, in.Trigger)
}

// summaryCut(session, buildOptionsJSON) -> Promise<JSON {cut, ok}>
func summaryCut(s *session.Session, arg []byte) (any, error) {
	var opts contextbuild.BuildOptions
	if err := decodeJSON(arg, "options", &opts); err != nil {
		return nil, err
	}
	cut, ok, err := contextbuild.SummaryCutFor(s, opts)
	return map[string]any{"cut": cut, "ok": ok}, err
}
