package catalog

import (
	"cmp"
	"slices"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// BlockLength is the window subscription plans count usage in: a block starts at the hour
// of its first request and lasts this long.
const BlockLength = 5 * time.Hour

// UsageBlock is the usage of one 5-hour window: from Start (the first request's hour) to
// End, with the times of its first and last requests, by model and in total.
type UsageBlock struct {
	Start   time.Time    `json:"start"`
	End     time.Time    `json:"end"`
	FirstAt time.Time    `json:"firstAt"`
	LastAt  time.Time    `json:"lastAt"`
	Models  []ModelUsage `json:"models"`
	Totals  ModelUsage   `json:"totals"`
}

// timedUsage is one request's usage and when it was made.
type timedUsage struct {
	at    time.Time
	model string
	usage session.Usage
}

// usageBlocks groups the requests filter selects into 5-hour windows, in time order: a
// request starts a new window when it comes BlockLength or more after the window's start
// or after the request before it. Each request is priced by filter.Prices.
func usageBlocks(log UsageLog, filter StatsFilter) ([]UsageBlock, error) {
	var reqs []timedUsage
	scan := UsageFilter{ProjectPath: filter.ProjectPath, Since: filter.Since, Until: filter.Until, WithUsage: true}
	err := log.ScanUsage(scan, func(r *UsageRecord) error {
		if reported(r.Usage) {
			reqs = append(reqs, timedUsage{r.CreatedAt, cmp.Or(r.Model, r.SessionModel, unknownModel), r.Usage})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(reqs, func(a, b timedUsage) int { return a.at.Compare(b.at) })
	var blocks []UsageBlock
	var models map[string]*ModelUsage
	for _, r := range reqs {
		if n := len(blocks); n == 0 || !r.at.Before(blocks[n-1].End) || r.at.Sub(blocks[n-1].LastAt) >= BlockLength {
			if n > 0 {
				blocks[n-1].Models = byModel(models)
			}
			start := r.at.UTC().Truncate(time.Hour)
			blocks = append(blocks, UsageBlock{Start: start, End: start.Add(BlockLength), FirstAt: r.at, Totals: ModelUsage{Model: "*"}})
			models = map[string]*ModelUsage{}
		}
		b := &blocks[len(blocks)-1]
		b.LastAt = r.at
		addUsage(models, r.model, r.model, r.usage, filter.Prices)
		b.Totals.add(requestUsage(r.model, r.usage, filter.Prices))
	}
	if n := len(blocks); n > 0 {
		blocks[n-1].Models = byModel(models)
	}
	return blocks, nil
}

// byModel is sums in model order.
func byModel(sums map[string]*ModelUsage) []ModelUsage {
	out := make([]ModelUsage, 0, len(sums))
	for _, u := range sums {
		out = append(out, *u)
	}
	slices.SortFunc(out, func(a, b ModelUsage) int { return cmp.Compare(a.Model, b.Model) })
	return out
}
