package catalog

import (
	"fmt"
	"math"
	"strings"

	"github.com/sessionkeep/sessionkeep/session"
)

// Price is what a model charges, in dollars per million tokens. A cache rate that is not
// given is charged at the input rate.
type Price struct {
	Input     float64  `json:"input"`
	Output    float64  `json:"output"`
	CacheRead *float64 `json:"cacheRead,omitempty"`
	// CacheWrite is the rate of a cache write with the default time to live (Anthropic's 5
	// minutes), and of every write whose usage does not say which TTL it used.
	CacheWrite *float64 `json:"cacheWrite,omitempty"`
	// CacheWrite1h is the rate of a cache write kept for an hour, where a provider sells it
	// (the usage's CacheCreation1hInputTokens). Not given, it is CacheWrite's rate.
	CacheWrite1h *float64 `json:"cacheWrite1h,omitempty"`
	// LongContext is the rate a request pays, on every token of it, once its prompt (input,
	// cache read and cache write tokens) is above a threshold.
	LongContext *LongContextPrice `json:"longContext,omitempty"`
}

// LongContextPrice is the rate of a request whose prompt has more than AboveTokens tokens.
type LongContextPrice struct {
	AboveTokens int64 `json:"aboveTokens"`
	Price
}

// Prices are prices by model name. A model is priced by its exact name, else by the
// longest name that is a prefix of it ("claude-sonnet-4-5" prices
// "claude-sonnet-4-5-20250929"), else by "*" when given.
type Prices map[string]Price

// Validate reports a negative or non-finite rate as session.ErrInvalidArgument.
func (p Prices) Validate() error {
	for model, price := range p {
		if !price.valid() {
			return fmt.Errorf("%w: prices[%q]: rates must be non-negative numbers of dollars per million tokens", session.ErrInvalidArgument, model)
		}
	}
	return nil
}

func (p Price) valid() bool {
	for _, r := range []*float64{&p.Input, &p.Output, p.CacheRead, p.CacheWrite, p.CacheWrite1h} {
		if r != nil && (*r < 0 || math.IsNaN(*r) || math.IsInf(*r, 0)) {
			return false
		}
	}
	if lc := p.LongContext; lc != nil {
		return lc.AboveTokens > 0 && lc.LongContext == nil && lc.Price.valid()
	}
	return true
}

// Lookup returns the price of model.
func (p Prices) Lookup(model string) (Price, bool) {
	if price, ok := p[model]; ok {
		return price, true
	}
	best, found := "", false
	for name := range p {
		if name != "*" && strings.HasPrefix(model, name) && len(name) > len(best) {
			best, found = name, true
		}
	}
	if found {
		return p[best], true
	}
	price, ok := p["*"]
	return price, ok
}

// Cost returns what usage u of model costs, in dollars, at its base rates (no long-context
// rate: u may sum several requests); ok is false when model has no price.
func (p Prices) Cost(model string, u session.Usage) (cost float64, ok bool) {
	price, ok := p.Lookup(model)
	if !ok {
		return 0, false
	}
	return price.cost(u), true
}

// RequestCost returns what one request's usage u of model costs, in dollars: at the
// long-context rate when its prompt is above the model's threshold.
func (p Prices) RequestCost(model string, u session.Usage) (cost float64, ok bool) {
	price, ok := p.Lookup(model)
	if !ok {
		return 0, false
	}
	prompt := u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
	if lc := price.LongContext; lc != nil && prompt > lc.AboveTokens {
		return lc.Price.cost(u), true
	}
	return price.cost(u), true
}

func (price Price) cost(u session.Usage) float64 {
	cacheRead, cacheWrite := price.Input, price.Input
	if price.CacheRead != nil {
		cacheRead = *price.CacheRead
	}
	if price.CacheWrite != nil {
		cacheWrite = *price.CacheWrite
	}
	cacheWrite1h := cacheWrite
	if price.CacheWrite1h != nil {
		cacheWrite1h = *price.CacheWrite1h
	}
	hour := min(max(0, u.CacheCreation1hInputTokens), u.CacheCreationInputTokens)
	perMillion := float64(u.InputTokens)*price.Input + float64(u.OutputTokens)*price.Output +
		float64(u.CacheReadInputTokens)*cacheRead + float64(u.CacheCreationInputTokens-hour)*cacheWrite +
		float64(hour)*cacheWrite1h
	return perMillion / 1e6
}

// WithBuiltin returns the built-in prices (BuiltinPrices) with p's laid over them: a model
// p names is priced by p, any other by the built-in table.
func (p Prices) WithBuiltin() Prices {
	all := make(Prices, len(builtinPrices)+len(p))
	for name, price := range builtinPrices {
		all[name] = price
	}
	for name, price := range p {
		all[name] = price
	}
	return all
}
