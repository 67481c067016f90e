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
}

// Stats sums the usage of every message by day and model, and prices it when prices are
// given. A message's model is the one it names, else its session's.
func Stats(m *session.Manager, filter StatsFilter) (UsageStats, error) {
	if filter.UTCOffsetMinutes < -14*60 || filter.UTCOffsetMinutes > 14*60 {
		return UsageStats{}, fmt.Errorf("%w: utcOffsetMinutes must be within ±840", session.ErrInvalidArgument)
	}
	store, err := readyToPrice(m, filter.Prices)
	if err != nil {
		return UsageStats{}, err
	}
	rows, err := usageByDay(store, filter)
	if err != nil {
		return UsageStats{}, err
	}
	st := UsageStats{Days: rows, Totals: ModelUsage{Model: "*"}}
	unpriced := map[string]bool{}
	for i := range st.Days {
		r := &st.Days[i]
		st.Totals.add(r.ModelUsage)
		if filter.Prices == nil {
			continue
		}
		cost, ok := filter.Prices.Cost(r.Model, r.usage())
		if !ok {
			if !unpriced[r.Model] {
				unpriced[r.Model] = true
				st.UnpricedModels = append(st.UnpricedModels, r.Model)
			}
			continue
		}
		r.Cost = &cost
		total := cost
		if st.Totals.Cost != nil {
			total += *st.Totals.Cost
		}
		st.Totals.Cost = &total
	}
	if filter.Prices != nil && st.Totals.Cost == nil {
		zero := 0.0
		st.Totals.Cost = &zero
	}
	return st, nil
}

func (u *ModelUsage) add(o ModelUsage) {
	u.Requests += o.Requests
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadInputTokens += o.CacheReadInputTokens
	u.CacheCreationInputTokens += o.CacheCreationInputTokens
}

func (u ModelUsage) usage() session.Usage {
	return session.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadInputTokens: u.CacheReadInputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens}
}
