package tokens

import (
	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// TokenCount is what one message costs in a context, in raw units (see Calibration).
type TokenCount struct {
	Tokens int64 // the message as stored
	Pruned int64 // the message as an old turn is sent when pruned: tool outputs shortened, thinking dropped
	// Source says where Tokens came from: TokensFromUsage (the provider's output_tokens)
	// or TokensFromTokenizer.
	Source string
}

// Where a message's token count came from.
const (
	TokensFromUsage     = "usage"
	TokensFromTokenizer = "tokenizer"
)

// conversationCount counts a stored record: a message of the main conversation by its
// blocks; a subagent's (sidechain) record, or a record that is not a message, costs the
// conversation nothing, so cumulative counts measure what a context can hold.
func conversationCount(role, provider string, sidechain bool, list [][]byte, u *session.Usage, names ToolNames) TokenCount {
	if role == "" || sidechain {
		return TokenCount{Source: TokensFromTokenizer}
	}
	return CountMessage(role, provider, list, u, names)
}

// ToolNames resolves the tool name of a tool_use id, "" when unknown. Pruning a tool
// result depends on the kind of tool that produced it.
type ToolNames map[string]string

// CountMessage counts a message from its blocks. Provider-reported output tokens replace
// the tokenizer's count of an assistant message when they are plausible (see usageCount).
func CountMessage(role, provider string, list [][]byte, u *session.Usage, names ToolNames) TokenCount {
	tc := TokenCount{Tokens: MessageOverhead, Pruned: MessageOverhead, Source: TokensFromTokenizer}
	for _, raw := range list {
		b, ok := DecodeBlock(raw)
		if !ok {
			n := CountText(string(raw)) + BlockOverhead
			tc.Tokens += n
			tc.Pruned += n
			continue
		}
		full, pruned := b.Count(raw, names)
		tc.Tokens += full
		tc.Pruned += pruned
		switch b.Type {
		case blocks.BlockToolUse:
			names[b.ID] = b.Name
		case blocks.BlockToolResult:
			delete(names, b.ToolUseID) // a tool is answered once; the map stays small
		}
	}
	if role == "assistant" && u != nil {
		if reported, ok := usageCount(u.OutputTokens, tc.Tokens, provider); ok {
			tc.Pruned = min(tc.Pruned, reported)
			tc.Tokens, tc.Source = reported, TokensFromUsage
		}
	}
	return tc
}

// usageCount converts a provider's output_tokens into raw units when it is plausible:
// within a factor of the tokenizer's estimate. Claude Code transcripts repeat the
// message_start usage (output_tokens 1, 3, 25 …) on every block of a long reply, and a
// count that far below the text's size is not the message's.
func usageCount(outputTokens, estimate int64, provider string) (int64, bool) {
	factor := Calibration(provider)
	est := Calibrated(estimate, factor)
	if outputTokens <= 0 || outputTokens*2 < est || outputTokens > 3*est+50 {
		return 0, false
	}
	return RawUnits(outputTokens, factor) + MessageOverhead, true
}

// Block is a block decoded for counting, pruning and shaping.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature *string         `json:"signature"`
	Data      string          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Title     string          `json:"title"`
	Source    *MediaSource    `json:"source"`
}

// MediaSource is the source of an image or document block.
type MediaSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	URL       string `json:"url"`
}

// DecodeBlock decodes a stored block for counting, pruning and shaping; false when raw is
// not a JSON object with a type.
func DecodeBlock(raw []byte) (Block, bool) {
	var b Block
	if err := json.Unmarshal(raw, &b); err != nil || b.Type == "" {
		return b, false
	}
	return b, true
}

// Count returns the block's raw tokens as stored and as pruned.
func (b *Block) Count(raw []byte, names ToolNames) (full, pruned int64) {
	switch b.Type {
	case blocks.BlockText:
		full = CountText(b.Text)
		return full + BlockOverhead, full + BlockOverhead
	case blocks.BlockThinking:
		return CountText(b.Thinking) + BlockOverhead, 0
	case blocks.BlockRedactedThinking:
		return int64(len(b.Data))/4 + BlockOverhead, 0
	case blocks.BlockToolUse:
		full = CountText(b.Name) + CountText(string(b.Input)) + toolUseOverhead
		input, _ := PruneToolInput(b.Input)
		return full, CountText(b.Name) + CountText(string(input)) + toolUseOverhead
	case blocks.BlockToolResult:
		full = resultContentTokens(b.Content) + toolResultOverhead
		return full, min(full, CountText(PruneToolResult(b.Content, names[b.ToolUseID]))+toolResultOverhead)
	case blocks.BlockImage, blocks.BlockDocument:
		full = mediaTokens(b) + BlockOverhead
		return full, full
	}
	if !blocks.IsAPIBlockType(b.Type) { // never sent: repair leaves out what the API does not take
		return 0, 0
	}
	full = CountText(string(raw)) + BlockOverhead
	return full, full
}

// resultContentTokens counts a tool result's content: a string, or blocks.
func resultContentTokens(content json.RawMessage) int64 {
	text, images := FlattenResult(content)
	return CountText(text) + int64(images)*imageTokens
}

// mediaTokens estimates an image or document: an image at the default resolution, a
// text document by its text, any other document by its size.
func mediaTokens(b *Block) int64 {
	if b.Type == blocks.BlockImage || b.Source == nil {
		return imageTokens
	}
	switch b.Source.Type {
	case "text":
		return CountText(b.Source.Data)
	case "base64":
		return max(imageTokens, int64(len(b.Source.Data))*3/4/3)
	}
	return imageTokens
}

// ContextMessage is a stored message with its counts, as the builder reads it.
type ContextMessage struct {
	session.StoredMessage
	Count   TokenCount
	Counted bool // Count is stored
}

// SetTokens records the count of message Seq; the store derives its cumulative counts from
// the message before it.
type SetTokens struct {
	session.ContextOpBase
	SessionID string
	Seq       int64
	Count     TokenCount
}

// SessionOf returns the session the op belongs to.
func (o SetTokens) SessionOf() string { return o.SessionID }
