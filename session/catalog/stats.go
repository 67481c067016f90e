package catalog

import (
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// StatsFilter narrows Stats. Days are calendar days at UTCOffsetMinutes from UTC.
type StatsFilter struct {
	ProjectPath      string    `json:"projectPath"`
	Since            time.Time `json:"since"`
	Until            time.Time `json:"until"`
	UTCOffsetMinutes int       `json:"utcOffsetMinutes"`
	Prices           Prices    `json:"prices"`
	// Blocks asks for the usage by 5-hour window as well (UsageStats.Blocks).
	Blocks bool `json:"blocks"`
}

// UsageRow is the usage of one model on one day.
type UsageRow struct {
	Day string `json:"day"` // YYYY-MM-DD
	ModelUsage
}

// UsageStats is token usage by day and model, with totals.
type UsageStats struct {
	Days           []UsageRow `json:"days"`
	Totals         ModelUsage `json:"totals"`
	UnpricedModels []string   `json:"unpricedModels,omitempty"`
	// Blocks is the usage by 5-hour window, oldest first, when StatsFilter.Blocks asks.
	Blocks []UsageBlock `json:"blocks,omitempty"`
}

// Stats sums the usage of every message by day and model, and prices each request by
// filter.Prices laid over the built-in prices. A message's model is the one it names, else its session's.
func Stats(m *session.Manager, filter StatsFilter) (UsageStats, error) {
	if filter.UTCOffsetMinutes < -14*60 || filter.UTCOffsetMinutes > 14*60 {
		return UsageStats{}, fmt.Errorf("%w: utcOffsetMinutes must be within ±840", session.ErrInvalidArgument)
	}
	store, err := readyToPrice(m, filter.Prices)
	if err != nil {
		return UsageStats{}, err
	}
	filter.Prices = filter.Prices.WithBuiltin()
	rows, err := usageByDay(store, filter)
	if err != nil {
		return UsageStats{}, err
	}
	st := UsageStats{Days: rows, Totals: ModelUsage{Model: "*"}}
	unpriced := map[string]bool{}
	zero := 0.0
	st.Totals.Cost = &zero
	for _, r := range st.Days {
		st.Totals.add(r.ModelUsage)
		if _, ok := filter.Prices.Lookup(r.Model); !ok && !unpriced[r.Model] {
			unpriced[r.Model] = true
			st.UnpricedModels = append(st.UnpricedModels, r.Model)
		}
	}
	if filter.Blocks {
		st.Blocks, err = usageBlocks(store, filter)
	}
	return st, err
}

func (u *ModelUsage) add(o ModelUsage) {
	if o.Cost != nil {
		u.addCost(*o.Cost)
	}
	u.Requests += o.Requests
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadInputTokens += o.CacheReadInputTokens
	u.CacheCreationInputTokens += o.CacheCreationInputTokens
	u.CacheCreation1hInputTokens += o.CacheCreation1hInputTokens
}

// addCost adds cost, in dollars, to u's.
func (u *ModelUsage) addCost(cost float64) {
	if u.Cost == nil {
		u.Cost = new(float64)
	}
	*u.Cost += cost
}

func (u ModelUsage) usage() session.Usage {
	return session.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadInputTokens: u.CacheReadInputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens,
		CacheCreation1hInputTokens: u.CacheCreation1hInputTokens}
}
