package catalog

import (
	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// SessionDetails is session.SessionInfo with what takes a pass over the session's messages to
// know: how many of each kind there are and the token usage by model, priced when prices
// are given.
type SessionDetails struct {
	session.SessionInfo
	Breakdown
}

// Breakdown is what SessionDetails adds to the listing.
type Breakdown struct {
	// Interactions is the number of prompts: user messages that are not tool results.
	Interactions      int64        `json:"interactions"`
	AssistantMessages int64        `json:"assistantMessages"`
	ToolResults       int64        `json:"toolResultMessages"`
	Usage             []ModelUsage `json:"usage"`
	// Cost sums the cost of every model with a price, in dollars.
	Cost *float64 `json:"cost,omitempty"`
	// UnpricedModels are the models with usage but no price, so Cost leaves them out.
	UnpricedModels []string `json:"unpricedModels,omitempty"`
}

// ModelUsage is the tokens one model used in a session, summed over its requests.
type ModelUsage struct {
	Model                    string `json:"model"`
	Requests                 int64  `json:"requests"`
	InputTokens              int64  `json:"inputTokens"`
	OutputTokens             int64  `json:"outputTokens"`
	CacheReadInputTokens     int64  `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64  `json:"cacheCreationInputTokens"`
	// CacheCreation1hInputTokens is the part of CacheCreationInputTokens written to the
	// cache for an hour, priced at the 1-hour rate.
	CacheCreation1hInputTokens int64    `json:"cacheCreation1hInputTokens"`
	Cost                       *float64 `json:"cost,omitempty"`
}

// MarshalJSON writes the listing fields and the breakdown side by side in one object (the
// listing's own MarshalJSON would otherwise be promoted and write the listing alone).
func (d SessionDetails) MarshalJSON() ([]byte, error) {
	info, err := json.Marshal(d.SessionInfo)
	if err != nil {
		return nil, err
	}
	rest, err := json.Marshal(d.Breakdown)
	if err != nil {
		return nil, err
	}
	return append(jsonenc.AppendObjectFields(info[:len(info)-1], rest), '}'), nil
}

// reconcileUsage makes the usage by model add up to the session's token tracker: tokens
// the tracker holds beyond what its messages report (a tracker restored from elsewhere)
// are counted for the session's model.
func (d *SessionDetails) reconcileUsage(prices Prices) {
	var sum ModelUsage
	for _, u := range d.Usage {
		sum.add(u)
	}
	t := d.Tokens
	extra := ModelUsage{
		InputTokens:              max(0, t.InputTokens-sum.InputTokens),
		OutputTokens:             max(0, t.OutputTokens-sum.OutputTokens),
		CacheReadInputTokens:     max(0, t.CacheReadInputTokens-sum.CacheReadInputTokens),
		CacheCreationInputTokens: max(0, t.CacheCreationInputTokens-sum.CacheCreationInputTokens),
	}
	if extra == (ModelUsage{}) {
		return
	}
	model := d.Model
	if cost, ok := prices.Cost(model, extra.usage()); ok {
		extra.Cost = &cost // at the base rate: these tokens are not known by request
	}
	for i := range d.Usage {
		if d.Usage[i].Model == model {
			d.Usage[i].add(extra) // no requests: only tokens the messages do not report
			return
		}
	}
	extra.Model = model
	d.Usage = append(d.Usage, extra)
}

// totalCost sums the cost of each model's usage into the session's, and names the models
// prices leave out.
func (d *SessionDetails) totalCost(prices Prices) {
	total := 0.0
	for _, u := range d.Usage {
		if _, ok := prices.Lookup(u.Model); !ok {
			d.UnpricedModels = append(d.UnpricedModels, u.Model)
			continue
		}
		if u.Cost != nil {
			total += *u.Cost
		}
	}
	d.Cost = &total
}
