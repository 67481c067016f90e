package catalog

// PricesTakenOn is the day the built-in prices were read from their sources.
const PricesTakenOn = "2026-11-29"

// PriceSources are the pages the built-in prices were read from, by provider. The table
// holds list prices of the standard tier, in dollars per million tokens; batch, flex,
// priority and regional rates are left out.
var PriceSources = map[string]string{
	"anthropic": "https://platform.claude.com/docs/en/about-claude/pricing",
	"openai":    "https://developers.openai.com/api/docs/pricing",
	"google":    "https://ai.google.dev/gemini-api/docs/pricing",
}

// BuiltinPrices returns a copy of the prices sessionkeep knows without being told: every
// session, listing and stats call is priced by them, under the caller's own.
func BuiltinPrices() Prices {
	return Prices(nil).WithBuiltin()
}

func rate(r float64) *float64 { return &r }

// anthropic is an Anthropic price: base input, 5-minute and 1-hour cache writes, cache
// hits, output; the columns of the provider's table, in its order.
func anthropic(input, write5m, write1h, read, output float64) Price {
	return Price{Input: input, Output: output, CacheRead: rate(read), CacheWrite: rate(write5m), CacheWrite1h: rate(write1h)}
}

// above gives p a long-context rate for prompts of more than tokens.
func above(p Price, tokens int64, long Price) Price {
	p.LongContext = &LongContextPrice{AboveTokens: tokens, Price: long}
	return p
}

// cached is an OpenAI or Google price: input, cached input, output. A write to the cache
// costs what input costs (OpenAI's caching is automatic; Google bills storage by the hour,
// which a session's usage does not record).
func cached(input, cachedInput, output float64) Price {
	return Price{Input: input, Output: output, CacheRead: rate(cachedInput), CacheWrite: rate(input)}
}

// sonnet4 is Claude Sonnet 4 and 4.5, whose 1M-token window costs more above 200K tokens.
var sonnet4 = above(anthropic(3, 3.75, 6, 0.30, 15), 200_000, anthropic(6, 7.50, 12, 0.60, 22.50))

// builtinPrices are the built-in prices by model id; a dated id (claude-sonnet-4-5-20250929,
// gpt-4o-2024-08-06) is priced by the longest id here that begins it.
var builtinPrices = Prices{
	// Anthropic
	"claude-fable-5-1":  anthropic(10, 12.50, 20, 0.25, 50),
	"claude-mythos-5-1": anthropic(10, 12.50, 20, 0.25, 50),
	"claude-fable-5":    anthropic(10, 12.50, 20, 1, 50),
	"claude-mythos-5":   anthropic(10, 12.50, 20, 1, 50),
	"claude-opus-5-5":   anthropic(4, 5, 8, 0.20, 20),
	"claude-opus-5":     anthropic(5, 6.25, 10, 0.50, 25),
	"claude-opus-4-8":   anthropic(5, 6.25, 10, 0.50, 25),
	"claude-opus-4-7":   anthropic(5, 6.25, 10, 0.50, 25),
	"claude-opus-4-6":   anthropic(5, 6.25, 10, 0.50, 25),
	"claude-opus-4-5":   anthropic(5, 6.25, 10, 0.50, 25),
	"claude-opus-4-1":   anthropic(15, 18.75, 30, 1.50, 75),
	"claude-opus-4":     anthropic(15, 18.75, 30, 1.50, 75),
	"claude-sonnet-5-5": anthropic(2, 2.50, 4, 0.10, 10),
	"claude-sonnet-5":   anthropic(2, 2.50, 4, 0.20, 10),
	"claude-sonnet-4-6": anthropic(3, 3.75, 6, 0.30, 15),
	"claude-sonnet-4-5": sonnet4,
	"claude-sonnet-4":   sonnet4,
	"claude-3-7-sonnet": anthropic(3, 3.75, 6, 0.30, 15),
	"claude-3-5-sonnet": anthropic(3, 3.75, 6, 0.30, 15),
	"claude-haiku-5-5":  above(anthropic(0.10, 0.125, 0.20, 0.01, 0.50), 100_000, anthropic(0.50, 0.625, 1, 0.05, 2.50)),
	"claude-haiku-4-5":  anthropic(1, 1.25, 2, 0.10, 5),
	"claude-3-5-haiku":  anthropic(0.80, 1, 1.60, 0.08, 4),
	"claude-3-opus":     anthropic(15, 18.75, 30, 1.50, 75),
	"claude-3-haiku":    anthropic(0.25, 0.30, 0.50, 0.03, 1.25),

	// OpenAI
	"gpt-5.5":            cached(5, 0.50, 30),
	"gpt-5.5-pro":        cached(30, 30, 180),
	"gpt-5.4":            cached(2.50, 0.25, 15),
	"gpt-5.4-mini":       cached(0.75, 0.075, 4.50),
	"gpt-5.4-nano":       cached(0.20, 0.02, 1.25),
	"gpt-5.4-pro":        cached(30, 30, 180),
	"gpt-5.3-codex":      cached(1.75, 0.175, 14),
	"gpt-5.2":            cached(1.75, 0.175, 14),
	"gpt-5.2-pro":        cached(21, 21, 168),
	"gpt-5.1":            cached(1.25, 0.125, 10),
	"gpt-5.1-codex-mini": cached(0.25, 0.025, 2),
	"gpt-5":              cached(1.25, 0.125, 10),
	"gpt-5-mini":         cached(0.25, 0.025, 2),
	"gpt-5-nano":         cached(0.05, 0.005, 0.40),
	"gpt-5-pro":          cached(15, 15, 120),
	"gpt-4.1":            cached(2, 0.50, 8),
	"gpt-4.1-mini":       cached(0.40, 0.10, 1.60),
	"gpt-4.1-nano":       cached(0.10, 0.025, 0.40),
	"gpt-4o":             cached(2.50, 1.25, 10),
	"gpt-4o-mini":        cached(0.15, 0.075, 0.60),
	"o3":                 cached(2, 0.50, 8),
	"o3-mini":            cached(1.10, 0.55, 4.40),
	"o3-pro":             cached(20, 20, 80),
	"o1":                 cached(15, 7.50, 60),
	"o4-mini":            cached(1.10, 0.275, 4.40),
	"codex-mini-latest":  cached(1.50, 0.375, 6),

	// Google
	"gemini-3.1-pro":        above(cached(2, 0.20, 12), 200_000, cached(4, 0.40, 18)),
	"gemini-3-pro":          above(cached(2, 0.20, 12), 200_000, cached(4, 0.40, 18)),
	"gemini-3-flash":        cached(0.50, 0.05, 3),
	"gemini-2.5-pro":        above(cached(1.25, 0.125, 10), 200_000, cached(2.50, 0.25, 15)),
	"gemini-2.5-flash":      cached(0.30, 0.03, 2.50),
	"gemini-2.5-flash-lite": cached(0.10, 0.01, 0.40),
	"gemini-2.0-flash":      cached(0.10, 0.025, 0.40),
}
