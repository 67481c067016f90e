package contextbuild

import (
	"cmp"
	"math"
	"slices"
)

// strategy is one way of fitting a session into a token budget (seed 004, phase 3).
// Strategies are tried by priority, lowest first; one whose minBudget is above the budget
// is skipped. build returns nil when the strategy cannot fit the budget (it tells from
// counts, before reading messages); the builder still measures what it returns, after
// repairs, and moves on when that does not fit. The fallback comes after them all and
// always fits.
type strategy interface {
	name() string
	priority() float64
	minBudget() int64 // in the target provider's tokens
	build(v *view, budget int64) (*draft, error)
}

// Strategy names, as results and reports give them.
const (
	FullHistoryName       = "full-history"
	PrunedToolsName       = "pruned-tools"
	RecentPlusSummaryName = "recent-plus-summary"
	RecentTurnsName       = "recent-turns"
	MinimalStateName      = "minimal-state"
	FallbackName          = "fallback"
)

// strategies are the registered strategies in the order they are tried. A new strategy
// is one more entry here.
var strategies = byPriority(fullHistory{}, prunedTools{}, recentPlusSummary{}, recentTurns{}, minimalState{}, fallback{})

func byPriority(list ...strategy) []strategy {
	slices.SortStableFunc(list, func(a, b strategy) int { return cmp.Compare(a.priority(), b.priority()) })
	return list
}

func strategyByName(name string) strategy {
	for _, s := range strategies {
		if s.name() == name {
			return s
		}
	}
	return nil
}

func strategyNames() []string {
	names := make([]string, len(strategies))
	for i, s := range strategies {
		names[i] = s.name()
	}
	return names
}

// StrategyInfo describes a built-in strategy to the JavaScript layer, which places the
// strategies registered there among them.
type StrategyInfo struct {
	Name      string   `json:"name"`
	Priority  *float64 `json:"priority"` // nil for the fallback, which always comes last
	MinTokens int64    `json:"minTokens"`
}

// BuiltinStrategies lists the built-in strategies in the order they are tried.
func BuiltinStrategies() []StrategyInfo {
	out := make([]StrategyInfo, len(strategies))
	for i, s := range strategies {
		out[i] = StrategyInfo{Name: s.name(), MinTokens: s.minBudget()}
		if p := s.priority(); !math.IsInf(p, 1) {
			out[i].Priority = &p
		}
	}
	return out
}
