package catalog

import (
	"cmp"
	"slices"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// unknownModel is the model stats name usage by when neither the message nor its session
// names one.
const unknownModel = "unknown"

// sessionUsage counts the messages of session info by type and sums their usage by model
// (the model a message names, else the session's), each request priced by prices.
func sessionUsage(log UsageLog, info session.SessionInfo, prices Prices) (SessionDetails, error) {
	d := SessionDetails{SessionInfo: info}
	byModel := map[string]*ModelUsage{}
	err := log.ScanUsage(UsageFilter{SessionID: info.ID}, func(r *UsageRecord) error {
		switch r.Type {
		case session.TypeUser:
			d.Interactions++
		case session.TypeAssistant:
			d.AssistantMessages++
		case session.TypeToolResult:
			d.ToolResults++
		}
		if reported(r.Usage) {
			model := cmp.Or(r.Model, info.Model)
			addUsage(byModel, model, model, r.Usage, prices)
		}
		return nil
	})
	d.Usage = make([]ModelUsage, 0, len(byModel))
	for _, u := range byModel {
		d.Usage = append(d.Usage, *u)
	}
	slices.SortFunc(d.Usage, func(a, b ModelUsage) int { return cmp.Compare(a.Model, b.Model) })
	return d, err
}

// usageByDay sums the usage of the messages filter selects by day and model (the model a
// message names, else its session's, else unknownModel), in day then model order, each
// request priced by filter.Prices.
func usageByDay(log UsageLog, filter StatsFilter) ([]UsageRow, error) {
	type dayModel struct{ day, model string }
	sums := map[dayModel]*ModelUsage{}
	offset := time.Duration(filter.UTCOffsetMinutes) * time.Minute
	scan := UsageFilter{ProjectPath: filter.ProjectPath, Since: filter.Since, Until: filter.Until, WithUsage: true}
	err := log.ScanUsage(scan, func(r *UsageRecord) error {
		if !reported(r.Usage) {
			return nil
		}
		model := cmp.Or(r.Model, r.SessionModel, unknownModel)
		addUsage(sums, dayModel{r.CreatedAt.Add(offset).UTC().Format(time.DateOnly), model}, model, r.Usage, filter.Prices)
		return nil
	})
	rows := make([]UsageRow, 0, len(sums))
	for key, u := range sums {
		rows = append(rows, UsageRow{Day: key.day, ModelUsage: *u})
	}
	slices.SortFunc(rows, func(a, b UsageRow) int { return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.Model, b.Model)) })
	return rows, err
}

// addUsage adds one request's usage, of model, to the sum kept under key.
func addUsage[K comparable](sums map[K]*ModelUsage, key K, model string, usage session.Usage, prices Prices) {
	u := sums[key]
	if u == nil {
		u = &ModelUsage{Model: model}
		sums[key] = u
	}
	u.add(requestUsage(model, usage, prices))
}

// requestUsage is one request's usage of model, with its cost when prices price model. A
// request is priced alone because a long-context rate depends on the size of its prompt,
// which a sum no longer shows.
func requestUsage(model string, usage session.Usage, prices Prices) ModelUsage {
	u := ModelUsage{Model: model, Requests: 1, InputTokens: usage.InputTokens, OutputTokens: usage.OutputTokens,
		CacheReadInputTokens: usage.CacheReadInputTokens, CacheCreationInputTokens: usage.CacheCreationInputTokens,
		CacheCreation1hInputTokens: usage.CacheCreation1hInputTokens}
	if cost, ok := prices.RequestCost(model, usage); ok {
		u.Cost = &cost
	}
	return u
}
