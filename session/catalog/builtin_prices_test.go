package catalog

import (
	"math"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestBuiltinPricesPinnedToSources pins a few rates to the pages they were read from on
// PricesTakenOn; a change here is a change of a provider's list price, to be re-read there.
func TestBuiltinPricesPinnedToSources(t *testing.T) {
	million := session.Usage{InputTokens: 1e6}
	cases := []struct {
		source, model string
		usage         session.Usage
		want          float64
		oneRequest    bool
	}{
		// Rates per million are checked with Cost, at base rates; the long-context ones
		// with RequestCost, as one request.
		// platform.claude.com/docs/en/about-claude/pricing, "Model pricing"
		{"anthropic", "claude-sonnet-4-5-20250929", million, 3, false},
		{"anthropic", "claude-sonnet-4-5-20250929", session.Usage{OutputTokens: 1e6}, 15, false},
		{"anthropic", "claude-sonnet-4-5-20250929", session.Usage{CacheReadInputTokens: 1e6}, 0.30, false},
		{"anthropic", "claude-sonnet-4-5-20250929", session.Usage{CacheCreationInputTokens: 1e6}, 3.75, false},
		// a write kept for an hour ("1h Cache Writes"), and one split between the TTLs
		{"anthropic", "claude-sonnet-4-5-20250929", session.Usage{CacheCreationInputTokens: 1e6, CacheCreation1hInputTokens: 1e6}, 6, false},
		{"anthropic", "claude-opus-4-6", session.Usage{CacheCreationInputTokens: 1e6, CacheCreation1hInputTokens: 25e4}, 0.75*6.25 + 0.25*10, false},
		{"anthropic", "claude-haiku-4-5-20251001", session.Usage{CacheCreationInputTokens: 1e6, CacheCreation1hInputTokens: 1e6}, 2, false},
		// platform.claude.com/docs/en/models/opus-5-5/overview and sonnet-5-5 (re-read on
		// 2026-11-29): Opus 5.5's 1-hour write and hit rates, Sonnet 5.5's hit rate since its cut
		{"anthropic", "claude-opus-5-5", session.Usage{CacheCreationInputTokens: 1e6, CacheCreation1hInputTokens: 1e6}, 8, false},
		{"anthropic", "claude-opus-5-5", session.Usage{CacheReadInputTokens: 1e6}, 0.20, false},
		{"anthropic", "claude-sonnet-5-5", session.Usage{CacheReadInputTokens: 1e6}, 0.10, false},
		{"anthropic", "claude-opus-4-5-20251101", million, 5, false},
		{"anthropic", "claude-opus-4-1-20250805", session.Usage{OutputTokens: 1e6}, 75, false},
		{"anthropic", "claude-haiku-4-5-20251001", session.Usage{OutputTokens: 1e6}, 5, false},
		{"anthropic", "claude-3-5-haiku-20241022", million, 0.80, false},
		// the same page, "Long context pricing": Sonnet 4.5 above 200K prompt tokens
		{"anthropic", "claude-sonnet-4-5-20250929", session.Usage{InputTokens: 300_000}, 300_000 * 6 / 1e6, true},
		// developers.openai.com/api/docs/pricing, standard tier
		{"openai", "gpt-5-codex", million, 1.25, false},
		{"openai", "gpt-5-codex", session.Usage{CacheReadInputTokens: 1e6}, 0.125, false},
		{"openai", "gpt-4o-2024-08-06", session.Usage{OutputTokens: 1e6}, 10, false},
		{"openai", "gpt-5.4-mini", million, 0.75, false},
		// ai.google.dev/gemini-api/docs/pricing: 2.5 Pro, prompts up to and above 200K
		{"google", "gemini-2.5-pro", million, 1.25, false},
		{"google", "gemini-2.5-pro", million, 2.50, true},
		{"google", "gemini-2.5-pro", session.Usage{InputTokens: 100_000}, 0.125, true},
		{"google", "gemini-2.5-flash", session.Usage{OutputTokens: 1e6}, 2.50, false},
	}
	builtin := BuiltinPrices()
	for _, c := range cases {
		if PriceSources[c.source] == "" {
			t.Fatalf("no source named for %s", c.source)
		}
		got, ok := builtin.Cost(c.model, c.usage)
		if c.oneRequest {
			got, ok = builtin.RequestCost(c.model, c.usage)
		}
		if !ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s %+v: $%v (priced %v), want $%v per %s", c.model, c.usage, got, ok, c.want, PriceSources[c.source])
		}
	}
	if err := builtin.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, ok := builtin.Lookup("llama-3-70b"); ok {
		t.Error("a model the table does not hold must have no price, so that it is named as unpriced")
	}
}

// TestCallerPricesOverBuiltin: the caller's price of a model wins; other models keep theirs.
func TestCallerPricesOverBuiltin(t *testing.T) {
	all := Prices{"claude-sonnet-4-5": {Input: 1, Output: 1}, "my-model": {Input: 2, Output: 2}}.WithBuiltin()
	if got, _ := all.RequestCost("claude-sonnet-4-5-20250929", session.Usage{InputTokens: 1e6}); got != 1 {
		t.Errorf("caller's Sonnet 4.5: $%v, want $1", got)
	}
	if got, _ := all.RequestCost("my-model", session.Usage{OutputTokens: 1e6}); got != 2 {
		t.Errorf("caller's own model: $%v, want $2", got)
	}
	if got, _ := all.RequestCost("gpt-5", session.Usage{InputTokens: 1e6}); got != 1.25 {
		t.Errorf("built-in gpt-5 under caller prices: $%v, want $1.25", got)
	}
}

// TestLongContextRateByRequest: the long-context rate applies to a request whose prompt,
// cache tokens included, is above the threshold, and to every token of it.
func TestLongContextRateByRequest(t *testing.T) {
	p := BuiltinPrices()
	under := session.Usage{InputTokens: 1000, CacheReadInputTokens: 199_000, OutputTokens: 1000}
	over := session.Usage{InputTokens: 1000, CacheReadInputTokens: 199_001, OutputTokens: 1000}
	u, _ := p.RequestCost("claude-sonnet-4-5", under)
	o, _ := p.RequestCost("claude-sonnet-4-5", over)
	wantUnder := (1000*3 + 199_000*0.30 + 1000*15) / 1e6
	wantOver := (1000*6 + 199_001*0.60 + 1000*22.50) / 1e6
	if math.Abs(u-wantUnder) > 1e-9 || math.Abs(o-wantOver) > 1e-9 {
		t.Errorf("under $%v want $%v; over $%v want $%v", u, wantUnder, o, wantOver)
	}
	if err := (Prices{"x": {Input: 1, LongContext: &LongContextPrice{AboveTokens: 0}}}).Validate(); err == nil {
		t.Error("a long-context rate without a threshold must be refused")
	}
}

// TestAnHourCacheWriteWithoutItsRateCostsTheCacheWriteRate: a caller's price that names no
// 1-hour rate charges every write at its cache write rate.
func TestAnHourCacheWriteWithoutItsRateCostsTheCacheWriteRate(t *testing.T) {
	write := 4.0
	p := Prices{"m": {Input: 1, Output: 1, CacheWrite: &write}}
	if got, _ := p.Cost("m", session.Usage{CacheCreationInputTokens: 1e6, CacheCreation1hInputTokens: 5e5}); got != 4 {
		t.Errorf("$%v, want $4", got)
	}
}
