package tokens

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// realTranscripts is where the shared real Claude Code transcripts are, beside the worktree.
var realTranscripts = filepath.Join("..", "..", "..", "shared", "fixtures", "real", "claude_code")

// growth is one measured step of a real conversation: how much the provider says the
// context grew between two requests, and what sessionkeep counts for the messages added.
type growth struct{ reported, raw int64 }

type transcriptRecord struct {
	Type        string `json:"type"`
	IsSidechain bool   `json:"isSidechain"`
	Message     struct {
		ID      string          `json:"id"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Usage   *session.Usage  `json:"usage"`
	} `json:"message"`
}

// transcriptGrowth replays a transcript's main chain and returns, for each request after
// the first, the reported growth of the context (input + cache tokens) and the raw count of
// what was added since the request before: that request's reply and the user messages after.
func transcriptGrowth(t *testing.T, path string) []growth {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []growth
	names := ToolNames{}
	var lastID string
	var lastCtx, added int64 = -1, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var r transcriptRecord
		if strings.HasPrefix(string(line), "//") || json.Unmarshal(line, &r) != nil || r.IsSidechain {
			continue
		}
		if r.Type != "user" && r.Type != "assistant" || len(r.Message.Content) == 0 {
			continue
		}
		if r.Type == "assistant" && r.Message.ID != lastID && r.Message.Usage != nil {
			u := r.Message.Usage
			ctx := u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
			if lastCtx >= 0 && ctx > lastCtx {
				out = append(out, growth{ctx - lastCtx, added})
			}
			lastID, lastCtx, added = r.Message.ID, ctx, 0
		}
		added += CountMessage(r.Message.Role, "claude", recordBlocks(r.Message.Content), nil, names).Tokens
	}
	return out
}

// recordBlocks returns a transcript message's content as blocks; string content is text.
func recordBlocks(content json.RawMessage) [][]byte {
	if content[0] == '"' {
		var s string
		json.Unmarshal(content, &s)
		return [][]byte{blocks.MustJSON(blocks.TextBlock{Type: blocks.BlockText, Text: s})}
	}
	var raws []json.RawMessage
	json.Unmarshal(content, &raws)
	blocks := make([][]byte, len(raws))
	for i, r := range raws {
		blocks[i] = r
	}
	return blocks
}

// TestCalibrationAgainstReportedUsage measures the tokenizer against what Anthropic reported
// for real Claude Code sessions: the context's growth between consecutive requests, against
// sessionkeep's count of the messages that made it grow. Per request step, the calibrated
// count must be right in the middle (median within 10%) and rarely far below (the 10th
// percentile above 75%). The total is reported, not asserted: a few steps grew by content
// Claude Code added that the transcript does not hold (one step grew by 14,181 tokens for
// 1,110 tokens of recorded messages).
func TestCalibrationAgainstReportedUsage(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(realTranscripts, "*.jsonl"))
	if len(files) == 0 {
		t.Fatalf("no transcripts under %s", realTranscripts)
	}
	var all []growth
	for _, f := range files {
		all = append(all, transcriptGrowth(t, f)...)
	}
	factor := Calibration("claude")
	var reported, estimate int64
	ratios := make([]float64, 0, len(all))
	for _, g := range all {
		est := Calibrated(g.raw, factor)
		reported += g.reported
		estimate += est
		ratios = append(ratios, float64(est)/float64(g.reported))
	}
	sort.Float64s(ratios)
	t.Logf("%d request steps over %d transcripts: reported growth %d tokens, calibrated count %d (%+.1f%%); per step counted/reported: median %.3f, p10 %.3f, p25 %.3f, p75 %.3f, p90 %.3f",
		len(all), len(files), reported, estimate, 100*(float64(estimate)-float64(reported))/float64(reported),
		quantile(ratios, 0.5), quantile(ratios, 0.1), quantile(ratios, 0.25), quantile(ratios, 0.75), quantile(ratios, 0.9))
	if len(all) < 50 {
		t.Fatalf("only %d measurable steps", len(all))
	}
	if med := quantile(ratios, 0.5); math.Abs(med-1) > 0.1 {
		t.Errorf("median counted/reported per step is %.3f, want within 10%% of 1", med)
	}
	if p10 := quantile(ratios, 0.1); p10 < 0.75 {
		t.Errorf("10th percentile counted/reported per step is %.3f, want at least 0.75", p10)
	}
}

func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(q*float64(len(sorted)-1))]
}
