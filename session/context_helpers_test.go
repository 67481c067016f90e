package session_test

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// build builds a context and checks what every context must be: within the budget, and
// valid for both providers' rules.
func build(t *testing.T, s *session.Session, opts session.BuildOptions) *session.ContextResult {
	t.Helper()
	res, err := s.BuildContext(opts)
	if err != nil {
		t.Fatalf("BuildContext(%+v): %v", opts, err)
	}
	if res.TokensUsed > res.TokenBudget {
		t.Fatalf("%s: %d tokens used over a budget of %d", res.Strategy, res.TokensUsed, res.TokenBudget)
	}
	provider := opts.Provider
	if provider == "" {
		provider = session.ProviderAnthropic
	}
	val, err := session.ValidateContext(res.Messages, provider)
	if err != nil || !val.Valid {
		t.Fatalf("%s context for %s is not valid: %v %+v", res.Strategy, provider, err, val.Problems)
	}
	return res
}

// rank is a strategy's place in the order they are tried.
func rank(name string) int {
	for i, n := range []string{session.FullHistoryName, session.PrunedToolsName, session.RecentPlusSummaryName, session.RecentTurnsName, session.MinimalStateName, session.FallbackName} {
		if n == name {
			return i
		}
	}
	return -1
}
