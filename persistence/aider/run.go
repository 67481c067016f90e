package aider

import (
	"github.com/goccy/go-json"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// run is one run of aider: one session.
type run struct {
	chain     transcript.Chain
	project   string
	started   time.Time
	startLine string
	title     string
	// titleIsCommand: the title is an aider command (/add …), taken until the user asks
	// something.
	titleIsCommand bool
	model          string
	answer         int // the index of the last answer in chain.Records, -1 after its usage is read
}

// command finds an aider command (/add, /code, /commit, …), which aider runs rather than
// sends: /code and /ask write what they send again, as a message of its own.
var command = regexp.MustCompile(`^/[a-z][\w-]*(\s|$)`)

// add appends one message: the user's, the model's, or aider's output, from which the
// model and the usage of the answer before it are read. What the user typed is a command
// when it is one: a record of type "command" that is not a message, its text under
// source.text.
func (r *run) add(kind, text string) {
	rec := importing.Record{Type: kind, CreatedAt: r.started}
	source := map[string]any{"record": kind}
	switch kind {
	case "user":
		isCommand := command.MatchString(text)
		if r.title == "" || (r.titleIsCommand && !isCommand) {
			r.title, r.titleIsCommand = text, isCommand
		}
		if isCommand {
			rec.Type, source["text"] = "command", text
			break
		}
		rec.Role, rec.Blocks = "user", []session.RecordBlock{transcript.Text(text)}
	case "assistant":
		rec.Role, rec.Blocks = "assistant", []session.RecordBlock{transcript.Text(text)}
		if r.model != "" {
			rec.Meta = blocks.MustJSON(map[string]string{"model": r.model})
		}
		r.answer = len(r.chain.Records)
	default:
		rec.Type, source["text"] = "output", text
		r.output(text)
	}
	if len(r.chain.Records) == 0 && r.startLine != "" {
		source["started"] = r.startLine
	}
	rec.Provider = r.provider()
	r.chain.Add(kind+"\x00"+text, rec, session.EnvelopeExtra{}, source, r.project)
}

// modelLine finds the model aider announces: "Model: <name> with …" (older versions),
// "Main model: <name> with …" (newer).
var modelLine = regexp.MustCompile(`(?m)^(?:Main )?[Mm]odel: (\S+)`)

// tokensLine finds aider's report of a request: "Tokens: 4.2k sent, 1.1k cache write,
// 2.0k cache hit, 317 received." (the cache counts only when there are some).
var tokensLine = regexp.MustCompile(`Tokens: ([\d.]+[kM]?) sent(?:, ([\d.]+[kM]?) cache write)?(?:, ([\d.]+[kM]?) cache hit)?, ([\d.]+[kM]?) received`)

// output reads the model and usage aider reports.
func (r *run) output(text string) {
	if m := modelLine.FindStringSubmatch(text); m != nil {
		r.model = m[1]
	}
	m := tokensLine.FindStringSubmatch(text)
	if m == nil || r.answer < 0 || len(r.chain.Records) == 0 {
		return
	}
	rec := &r.chain.Records[r.answer]
	if rec.Role != "assistant" || rec.Usage != nil {
		return
	}
	u := session.Usage{InputTokens: count(m[1]), CacheCreationInputTokens: count(m[2]), CacheReadInputTokens: count(m[3]), OutputTokens: count(m[4])}
	rec.Usage = &u
	meta := map[string]any{"usage": u}
	if model := modelOf(rec.Meta); model != "" {
		meta["model"] = model
	}
	rec.Meta = blocks.MustJSON(meta)
	r.answer = -1
}

// modelOf is the model a record's message fields name, or "".
func modelOf(fields []byte) string {
	var meta struct {
		Model string `json:"model"`
	}
	json.Unmarshal(fields, &meta)
	return meta.Model
}

// count reads a token count as aider writes it: 317, 4.2k, 12k, 1.5M.
func count(s string) int64 {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1e3, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, strings.TrimSuffix(s, "M")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return int64(f*mult + 0.5)
}

// provider guesses the provider from the model's name, as aider names models: litellm's
// "provider/model" (or "router/provider/model"), or the bare names of the big three. The
// model's own name, after the last "/", decides first: "openrouter/openai/gpt-4o-mini" is
// openai's, as "openrouter/anthropic/claude-…" is anthropic's.
func (r *run) provider() string {
	m := strings.ToLower(r.model)
	name := m[strings.LastIndex(m, "/")+1:]
	switch {
	case m == "":
		return ""
	case strings.HasPrefix(name, "claude") || strings.HasPrefix(m, "anthropic/"):
		return "anthropic"
	case strings.HasPrefix(name, "gemini") || strings.HasPrefix(m, "gemini/"):
		return "google"
	case strings.HasPrefix(name, "gpt") || strings.HasPrefix(name, "o1") || strings.HasPrefix(name, "o3") || strings.HasPrefix(name, "o4") || strings.HasPrefix(m, "openai/"):
		return "openai"
	}
	if provider, _, ok := strings.Cut(m, "/"); ok {
		return provider
	}
	return ""
}
