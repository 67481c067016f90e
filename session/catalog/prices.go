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
	Input      float64  `json:"input"`
	Output     float64  `json:"output"`
	CacheRead  *float64 `json:"cacheRead,omitempty"`
	CacheWrite *float64 `json:"cacheWrite,omitempty"`
}

// Prices are prices by model name. A model is priced by its exact name, else by the
// longest name that is a prefix of it ("claude-sonnet-4-5" prices
// "claude-sonnet-4-5-20250929"), else by "*" when given.
type Prices map[string]Price

// Validate reports a negative or non-finite rate as session.ErrInvalidArgument.
func (p Prices) Validate() error {
	for model, price := range p {
		rates := []*float64{&price.Input, &price.Output, price.CacheRead, price.CacheWrite}
		for _, r := range rates {
			if r != nil && (*r < 0 || math.IsNaN(*r) || math.IsInf(*r, 0)) {
				return fmt.Errorf("%w: prices[%q]: rates must be non-negative numbers of dollars per million tokens", session.ErrInvalidArgument, model)
			}
		}
	}
	return nil
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

// Cost returns what usage u of model costs, in dollars; ok is false when model has no price.
func (p Prices) Cost(model string, u session.Usage) (cost float64, ok bool) {
	price, ok := p.Lookup(model)
	if !ok {
		return 0, false
	}
	cacheRead, cacheWrite := price.Input, price.Input
	if price.CacheRead != nil {
		cacheRead = *price.CacheRead
	}
	if price.CacheWrite != nil {
		cacheWrite = *price.CacheWrite
	}
	perMillion := float64(u.InputTokens)*price.Input + float64(u.OutputTokens)*price.Output +
		float64(u.CacheReadInputTokens)*cacheRead + float64(u.CacheCreationInputTokens)*cacheWrite
	return perMillion / 1e6, true
}
