package catalog

import (
	"math"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// recordedUsage is a UsageLog over records held in memory, handed out in the order given.
type recordedUsage []UsageRecord

func (l recordedUsage) ScanUsage(_ UsageFilter, fn func(*UsageRecord) error) error {
	for i := range l {
		if err := fn(&l[i]); err != nil {
			return err
		}
	}
	return nil
}

func TestUsageBlocksFiveHourWindows(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	req := func(when, model string, in int64) UsageRecord {
		return UsageRecord{Type: session.TypeAssistant, Model: model, CreatedAt: at(when), Usage: session.Usage{InputTokens: in, OutputTokens: 10}}
	}
	log := recordedUsage{ // out of order, as ScanUsage may hand them out
		req("2026-03-01T13:59:00Z", "claude-sonnet-4-5", 300), // 09:00 + 5h = 14:00: still the first block
		req("2026-03-01T09:40:00Z", "claude-sonnet-4-5", 100),
		req("2026-03-01T10:10:00Z", "claude-haiku-4-5", 200),
		req("2026-03-01T14:00:00Z", "claude-sonnet-4-5", 400),           // the window has ended: a new block at 14:00
		req("2026-03-02T08:30:00Z", "mystery-model", 500),               // after a gap: a block at 08:00
		{Type: session.TypeUser, CreatedAt: at("2026-03-01T11:00:00Z")}, // no usage: no request
	}
	blocks, err := usageBlocks(log, StatsFilter{Prices: BuiltinPrices()})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 {
		t.Fatalf("%d blocks, want 3: %+v", len(blocks), blocks)
	}
	first := blocks[0]
	if !first.Start.Equal(at("2026-03-01T09:00:00Z")) || !first.End.Equal(at("2026-03-01T14:00:00Z")) ||
		!first.FirstAt.Equal(at("2026-03-01T09:40:00Z")) || !first.LastAt.Equal(at("2026-03-01T13:59:00Z")) {
		t.Errorf("first block %v–%v, requests %v–%v", first.Start, first.End, first.FirstAt, first.LastAt)
	}
	if first.Totals.Requests != 3 || first.Totals.InputTokens != 600 || len(first.Models) != 2 || first.Models[0].Model != "claude-haiku-4-5" {
		t.Errorf("first block sums %+v by model %+v", first.Totals, first.Models)
	}
	want := (400*3+20*15)/1e6 + (200*1+10*5)/1e6
	if first.Totals.Cost == nil || math.Abs(*first.Totals.Cost-want) > 1e-12 {
		t.Errorf("first block cost %v, want %v", first.Totals.Cost, want)
	}
	if !blocks[1].Start.Equal(at("2026-03-01T14:00:00Z")) || blocks[1].Totals.InputTokens != 400 {
		t.Errorf("second block %+v", blocks[1])
	}
	if !blocks[2].Start.Equal(at("2026-03-02T08:00:00Z")) || blocks[2].Totals.Cost != nil {
		t.Errorf("third block, of a model without a price: %+v", blocks[2])
	}
}
