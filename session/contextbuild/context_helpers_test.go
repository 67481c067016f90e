package contextbuild_test

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// build builds a context and checks what every context must be: within the budget, and
// valid for both providers' rules.
func build(t *testing.T, s *session.Session, opts contextbuild.BuildOptions) *contextbuild.ContextResult {
	t.Helper()
	res, err := contextbuild.Build(s, opts)
	if err != nil {
		t.Fatalf("Build(%+v): %v", opts, err)
	}
	if res.TokensUsed > res.TokenBudget {
		t.Fatalf("%s: %d tokens used over a budget of %d", res.Strategy, res.TokensUsed, res.TokenBudget)
	}
	provider := opts.Format
	if provider == "" {
		provider = tokens.ProviderAnthropic
	}
	val, err := contextbuild.ValidateContext(res.Messages, provider)
	if err != nil || !val.Valid {
		t.Fatalf("%s context for %s is not valid: %v %+v", res.Strategy, provider, err, val.Problems)
	}
	return res
}

// rank is a strategy's place in the order they are tried.
func rank(name string) int {
	for i, n := range []string{contextbuild.FullHistoryName, contextbuild.PrunedToolsName, contextbuild.RecentPlusSummaryName, contextbuild.RecentTurnsName, contextbuild.MinimalStateName, contextbuild.FallbackName} {
		if n == name {
			return i
		}
	}
	return -1
}
