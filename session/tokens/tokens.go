package tokens

import (
	"math"
	"unicode/utf8"
)

// Token counts are kept in "raw" units: o200k_base tokens of the text a message sends, plus
// a small overhead per message and block for the structure around it. A provider's own
// tokenizer differs; Calibration converts raw units into that provider's tokens when a
// budget is checked, so counts stored once serve every target provider.
//
// The overheads were fitted, with the Anthropic calibration, to the context growth Anthropic
// reported between requests of the real Claude Code transcripts in the shared fixtures: a
// tool call and its result cost about 60 tokens of framing beyond their text.
const (
	MessageOverhead    = 5  // role and message framing
	BlockOverhead      = 3  // block type and framing
	toolUseOverhead    = 30 // a tool call's framing: its id, name and parameter markup
	toolResultOverhead = 20 // a tool result's framing
	// imageTokens is what an image is taken to cost: the most an image at the providers'
	// default resolution costs (Anthropic: about 1,600 tokens for 1.15 megapixels).
	imageTokens = 1600
)

// CountText returns the o200k_base tokens of s. A text longer than sampledAbove bytes (a
// large tool output) is counted on textSamples windows spread over it and the count scaled
// by its length: tokenizing costs about 0.1 µs a byte, and counts are estimates anyway
// (TestSampledCountsMatchExactOnRealOutputs bounds the error on the real transcripts).
func CountText(s string) int64 {
	if len(s) <= sampledAbove {
		return exactCount(s)
	}
	step := len(s) / textSamples
	var tokens, bytes int64
	for i := range textSamples {
		w := runeWindow(s, i*step, sampleWindow)
		tokens += exactCount(w)
		bytes += int64(len(w))
	}
	return int64(math.Ceil(float64(tokens) * float64(len(s)) / float64(bytes)))
}

// Sampled counting: texts over sampledAbove bytes are counted on textSamples windows of
// sampleWindow bytes.
const (
	sampledAbove = 8 << 10
	textSamples  = 8
	sampleWindow = 512
)

// runeWindow returns about n bytes of s from offset from on, both ends moved forward to
// the start of a UTF-8 character.
func runeWindow(s string, from, n int) string {
	to := min(from+n, len(s))
	for from < to && !utf8.RuneStart(s[from]) {
		from++
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	return s[from:to]
}

// exactCount returns the o200k_base tokens of s (bpe.go). The vocabulary is read on the
// first count, so a process that never counts never pays for it (vocab.go).
func exactCount(s string) int64 {
	if s == "" {
		return 0
	}
	return bpeCount(s)
}

// Calibration is how many of a provider's tokens one raw token is, measured on the real
// transcripts in the shared fixtures (see the test TestCalibrationAgainstReportedUsage).
// It errs high: a budget that is overestimated wastes a little room, one underestimated
// overflows the window.
func Calibration(provider string) float64 {
	switch ProviderFamily(provider) {
	case ProviderAnthropic:
		return anthropicCalibration
	case ProviderOpenAI:
		return 1.0 // o200k_base is OpenAI's own tokenizer
	}
	return unknownCalibration
}

const (
	anthropicCalibration = 1.2
	unknownCalibration   = 1.25
)

// Provider families: the API shapes buildContext produces and validateContext checks.
const (
	ProviderAnthropic = "anthropic"
	ProviderOpenAI    = "openai"
)

// ProviderFamily maps a provider name as envelopes carry it ("claude", "codex", …) to the
// API family whose tokenizer and rules apply; "" when unknown.
func ProviderFamily(provider string) string {
	switch provider {
	case "anthropic", "claude":
		return ProviderAnthropic
	case "openai", "codex":
		return ProviderOpenAI
	}
	return ""
}

// Calibrated converts raw units into provider tokens, rounding up.
func Calibrated(raw int64, factor float64) int64 {
	return int64(math.Ceil(float64(raw) * factor))
}

// RawUnits converts provider tokens into raw units, rounding down.
func RawUnits(tokens int64, factor float64) int64 {
	return int64(float64(tokens) / factor)
}
