package contextbuild

import (
	"fmt"
	"math"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Defaults of context building (seed 004 and seed 003).
const (
	DefaultReserve          = 0.25 // of the window, kept for the response
	DefaultCompactThreshold = 0.75 // of the window, past which compaction is due
	DefaultRecentTurns      = 3    // turns kept verbatim by pruning and compaction
)

// BuildOptions are the inputs of Build, as JavaScript passes them.
type BuildOptions struct {
	ContextWindow int64           `json:"contextWindow"`
	SystemPrompt  string          `json:"systemPrompt"`
	Tools         json.RawMessage `json:"tools"`
	// Reserve is the fraction of the window kept for the response (default 0.25);
	// ReserveTokens, when set, is an absolute reserve instead.
	Reserve       *float64 `json:"reserve"`
	ReserveTokens *int64   `json:"reserveTokens"`
	// Format is the API whose messages the context is in: "anthropic" (default) or "openai".
	Format string `json:"format"`
	// Strategy names the first strategy to try; the ones before it are skipped.
	Strategy string `json:"strategy"`
	// UnprunedTurns is how many of the last turns keep their tool outputs whole (default
	// 3): pruned-tools, recent-plus-summary and recent-turns prune the turns before them.
	UnprunedTurns int `json:"unprunedTurns"`
	// CompactThreshold is the fraction of the window past which compaction is due.
	CompactThreshold *float64 `json:"compactThreshold"`
	StrategySelection
}

// StrategySelection lets the JavaScript layer interleave strategies registered there with
// the built-in ones: a build may try only the built-ins in a band of priorities, or only a
// candidate a registered strategy proposed, reporting the attempts JavaScript made first.
// A build restricted this way returns a result with no strategy when nothing fit, instead
// of falling back.
type StrategySelection struct {
	PriorityAbove   *float64   `json:"priorityAbove"`   // only built-ins of a higher priority
	PriorityThrough *float64   `json:"priorityThrough"` // only built-ins of this priority or lower
	Candidate       *Candidate `json:"candidate"`       // only this
	Attempts        []Attempt  `json:"attempts"`        // made before this build, reported first
}

// restricted reports whether the selection may leave no strategy to fall back on.
func (s *StrategySelection) restricted() bool { return s.PriorityThrough != nil || s.Candidate != nil }

// admits reports whether a built-in strategy is in the selection's band.
func (s *StrategySelection) admits(st strategy) bool {
	p := st.priority()
	return (s.PriorityAbove == nil || p > *s.PriorityAbove) && (s.PriorityThrough == nil || p <= *s.PriorityThrough)
}

// Budget is the token budget of one call (seed 004): the window minus the system prompt,
// the tool definitions and the response reserve, in the target provider's tokens.
type Budget struct {
	ContextWindow        int64   `json:"contextWindow"`
	SystemPromptTokens   int64   `json:"systemPromptTokens"`
	ToolDefinitionTokens int64   `json:"toolDefinitionTokens"`
	ReserveForResponse   int64   `json:"reserveForResponse"`
	AvailableTokens      int64   `json:"availableTokens"`
	ConversationTokens   int64   `json:"conversationTokens"` // what the full history would take
	UtilizationPercent   float64 `json:"utilizationPercent"` // of the window, with the full history
	Calibration          float64 `json:"calibration"`
}

// normalize checks the options and fills in defaults.
func (o *BuildOptions) normalize() error {
	if o.ContextWindow <= 0 {
		return fmt.Errorf("%w: contextWindow must be a positive number of tokens", session.ErrInvalidArgument)
	}
	switch o.Format {
	case "":
		o.Format = tokens.ProviderAnthropic
	case tokens.ProviderAnthropic, tokens.ProviderOpenAI:
	default:
		return fmt.Errorf("%w: format must be %q or %q, not %q", session.ErrInvalidArgument, tokens.ProviderAnthropic, tokens.ProviderOpenAI, o.Format)
	}
	if o.Reserve != nil && (*o.Reserve < 0 || *o.Reserve >= 1 || math.IsNaN(*o.Reserve)) {
		return fmt.Errorf("%w: reserve is a fraction of the window, at least 0 and below 1", session.ErrInvalidArgument)
	}
	if o.ReserveTokens != nil && *o.ReserveTokens < 0 {
		return fmt.Errorf("%w: reserveTokens must not be negative", session.ErrInvalidArgument)
	}
	if o.CompactThreshold != nil && (*o.CompactThreshold <= 0 || *o.CompactThreshold > 1) {
		return fmt.Errorf("%w: compactThreshold is a fraction of the window, above 0 and at most 1", session.ErrInvalidArgument)
	}
	if o.UnprunedTurns < 0 {
		return fmt.Errorf("%w: unprunedTurns must not be negative", session.ErrInvalidArgument)
	}
	if o.UnprunedTurns == 0 {
		o.UnprunedTurns = DefaultRecentTurns
	}
	if o.Strategy != "" && strategyByName(o.Strategy) == nil {
		return fmt.Errorf("%w: unknown strategy %q; the strategies are %v", session.ErrInvalidArgument, o.Strategy, strategyNames())
	}
	return nil
}

// budget computes the budget of a call.
func (o *BuildOptions) budget() Budget {
	factor := tokens.Calibration(o.Format)
	b := Budget{ContextWindow: o.ContextWindow, Calibration: factor}
	if o.SystemPrompt != "" {
		b.SystemPromptTokens = tokens.Calibrated(tokens.CountText(o.SystemPrompt)+tokens.MessageOverhead, factor)
	}
	if len(o.Tools) > 0 && string(o.Tools) != "null" {
		b.ToolDefinitionTokens = tokens.Calibrated(tokens.CountText(string(o.Tools)), factor)
	}
	reserve := DefaultReserve
	if o.Reserve != nil {
		reserve = *o.Reserve
	}
	b.ReserveForResponse = int64(math.Floor(float64(o.ContextWindow) * reserve))
	if o.ReserveTokens != nil {
		b.ReserveForResponse = *o.ReserveTokens
	}
	b.AvailableTokens = max(0, o.ContextWindow-b.SystemPromptTokens-b.ToolDefinitionTokens-b.ReserveForResponse)
	return b
}

// withConversation fills in what the full history would take of the window.
func (b *Budget) withConversation(tokens int64) {
	b.ConversationTokens = tokens
	used := tokens + b.SystemPromptTokens + b.ToolDefinitionTokens
	b.UtilizationPercent = math.Round(1000*float64(used)/float64(b.ContextWindow)) / 10
}

// compactionDue reports whether the tracked context size is past the threshold.
func (o *BuildOptions) compactionDue(b Budget) bool {
	threshold := DefaultCompactThreshold
	if o.CompactThreshold != nil {
		threshold = *o.CompactThreshold
	}
	used := b.ConversationTokens + b.SystemPromptTokens + b.ToolDefinitionTokens
	return float64(used) > threshold*float64(b.ContextWindow)
}
