package contextbuild

import (
	"fmt"
	"strings"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// ContextReport says what a built context holds and how it was chosen: seed 004's
// "/debug context", as data and as readable text.
type ContextReport struct {
	Strategy               string `json:"strategy"`
	Format                 string `json:"format"`
	Budget                 Budget `json:"budget"`
	TokensUsed             int64  `json:"tokensUsed"`
	OriginalMessageCount   int64  `json:"originalMessageCount"`
	IncludedMessageCount   int64  `json:"includedMessageCount"`
	PrunedMessageCount     int64  `json:"prunedMessageCount"`
	SummarizedMessageCount int64  `json:"summarizedMessageCount"`
	SentMessageCount       int    `json:"sentMessageCount"`
	// Omitted is what the context leaves out: neither sent nor stood for by a summary.
	Omitted       Omission    `json:"omitted"`
	Boundary      *Compaction `json:"boundary,omitempty"`
	Summary       *SummaryRef `json:"summary,omitempty"`
	Attempts      []Attempt   `json:"attempts"`
	Repairs       []Repair    `json:"repairs"`
	CompactionDue bool        `json:"compactionDue"`
	BuiltAt       string      `json:"builtAt"`
	DurationMs    float64     `json:"durationMs"`
	Text          string      `json:"text"`
}

// SummaryRef names the summary a context used.
type SummaryRef struct {
	FromSeq int64  `json:"fromSeq"`
	ToSeq   int64  `json:"toSeq"`
	Tokens  int64  `json:"tokens"`
	Model   string `json:"model"`
}

// Attempt is one strategy tried.
type Attempt struct {
	Strategy   string `json:"strategy"`
	Outcome    string `json:"outcome"`
	TokensUsed int64  `json:"tokensUsed,omitempty"`
	// TokensNeeded is what a strategy that does not fit would take, by the stored counts.
	TokensNeeded int64     `json:"tokensNeeded,omitempty"`
	Problems     []Problem `json:"problems,omitempty"`
}

// Outcomes of an attempt.
const (
	OutcomeChosen          = "chosen"
	OutcomeBelowMinimum    = "budget below the strategy's minimum"
	OutcomeDoesNotFit      = "does not fit"
	OutcomeNoSummary       = "no cached summary"
	OutcomeOverAfterRepair = "over budget after repairs"
	OutcomeInvalid         = "not valid for the provider"
)

// note keeps what the chosen draft holds, for the report.
func (v *view) note(d *draft, msgs []*ctxMessage, repairs []Repair) {
	v.chosen = &chosenDraft{draft: d, sent: len(msgs), repairs: repairs}
}

// chosenDraft is the draft a build returned.
type chosenDraft struct {
	*draft
	sent    int
	repairs []Repair
}

// finish completes the report of a result.
func (r *ContextReport) finish(res *ContextResult, v *view, began time.Time) {
	r.Strategy, r.TokensUsed, r.CompactionDue = res.Strategy, res.TokensUsed, res.CompactionDue
	r.OriginalMessageCount, r.IncludedMessageCount = res.OriginalMessageCount, res.IncludedMessageCount
	r.SummarizedMessageCount, r.Boundary = res.SummarizedMessageCount, v.idx.Boundary
	if c := v.chosen; c != nil {
		r.PrunedMessageCount, r.SentMessageCount, r.Repairs = c.pruned, c.sent, c.repairs
		r.Omitted = c.omitted
		r.Omitted.Tokens = tokens.Calibrated(c.omitted.Tokens, v.factor)
		if s := c.summary; s != nil {
			r.Summary = &SummaryRef{FromSeq: s.FromSeq, ToSeq: s.ToSeq, Tokens: tokens.Calibrated(summaryTokens(s), v.factor), Model: s.Model}
		}
	}
	if r.Omitted.MessageCount == 0 {
		r.Omitted = Omission{FromSeq: -1, ToSeq: -1}
	}
	if r.Repairs == nil {
		r.Repairs = []Repair{}
	}
	r.BuiltAt = jsonenc.FormatTime(time.Now())
	r.DurationMs = float64(time.Since(began).Microseconds()) / 1000
	r.Text = r.format()
}

// format writes the report for people.
func (r *ContextReport) format() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Context for %s: strategy %s\n", r.Format, r.Strategy)
	for _, a := range r.Attempts {
		switch {
		case a.Outcome == OutcomeChosen:
		case a.TokensNeeded > 0:
			fmt.Fprintf(&b, "  skipped %s: %s (needs %s tokens)\n", a.Strategy, a.Outcome, num(a.TokensNeeded))
		case a.TokensUsed > 0:
			fmt.Fprintf(&b, "  skipped %s: %s (%s tokens)\n", a.Strategy, a.Outcome, num(a.TokensUsed))
		default:
			fmt.Fprintf(&b, "  skipped %s: %s\n", a.Strategy, a.Outcome)
		}
	}
	bu := r.Budget
	fmt.Fprintf(&b, "Budget: %s window - %s system prompt - %s tools - %s reserve = %s tokens\n",
		num(bu.ContextWindow), num(bu.SystemPromptTokens), num(bu.ToolDefinitionTokens), num(bu.ReserveForResponse), num(bu.AvailableTokens))
	fmt.Fprintf(&b, "Used: %s tokens (%s of the budget); the full history would take %s, %.1f%% of the window with system prompt and tools",
		num(r.TokensUsed), percent(r.TokensUsed, bu.AvailableTokens), num(bu.ConversationTokens), bu.UtilizationPercent)
	if r.CompactionDue {
		b.WriteString("; compaction is due")
	}
	fmt.Fprintf(&b, "\nMessages: %s stored, %d sent: %s included (%s with tool outputs pruned), %s summarized\n",
		num(r.OriginalMessageCount), r.SentMessageCount, num(r.IncludedMessageCount), num(r.PrunedMessageCount), num(r.SummarizedMessageCount))
	if o := r.Omitted; o.MessageCount > 0 {
		fmt.Fprintf(&b, "Left out: messages %s-%s (%s messages, %s whole turns, %s tokens): %s\n",
			num(o.FromSeq), num(o.ToSeq), num(o.MessageCount), num(o.TurnCount), num(o.Tokens), o.Reason)
	}
	if r.Boundary != nil {
		fmt.Fprintf(&b, "Compacted (%s) before message %s\n", r.Boundary.Trigger, num(r.Boundary.Seq))
	}
	if s := r.Summary; s != nil {
		fmt.Fprintf(&b, "Summary: messages %s-%s in %s tokens (model %s)\n", num(s.FromSeq), num(s.ToSeq), num(s.Tokens), orNone(s.Model))
	}
	if len(r.Repairs) > 0 {
		fmt.Fprintf(&b, "Repairs: %s\n", repairSummary(r.Repairs))
	}
	fmt.Fprintf(&b, "Built in %.2f ms", r.DurationMs)
	return b.String()
}

// repairSummary counts repairs by kind, in the order they first happened.
func repairSummary(repairs []Repair) string {
	counts := map[string]int{}
	var order []string
	for _, r := range repairs {
		if counts[r.Kind] == 0 {
			order = append(order, r.Kind)
		}
		counts[r.Kind]++
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[k], strings.ReplaceAll(k, "_", " "))
	}
	return strings.Join(parts, ", ")
}

// num writes n with thousands separators.
func num(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + num(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func percent(part, whole int64) string {
	if whole <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}

// keepReport keeps the report of the session's last build for DebugContext.
func keepReport(s *session.Session, r *ContextReport) { s.KeepReport(r) }

// DebugContext returns the report of the last context built for this session in this
// process, nil before any.
func DebugContext(s *session.Session) (*ContextReport, error) {
	r, err := s.KeptReport()
	report, _ := r.(*ContextReport)
	return report, err
}
