package stream

// ChunkKind is the type of a stream chunk, named in JavaScript by the chunk's "type".
type ChunkKind uint8

// The chunk kinds, one for each StreamChunk type of the JavaScript API.
const (
	ChunkMessageStart ChunkKind = iota + 1
	ChunkText
	ChunkThinking
	ChunkSignature
	ChunkRedactedThinking
	ChunkToolUse
	ChunkToolUseStart
	ChunkToolUseDelta
	ChunkToolResult
	ChunkDone
	ChunkError
	ChunkBlock
	ChunkBlockStart
	ChunkBlockFields
)

var chunkNames = [...]string{
	ChunkMessageStart:     "message_start",
	ChunkText:             "text",
	ChunkThinking:         "thinking",
	ChunkSignature:        "signature",
	ChunkRedactedThinking: "redacted_thinking",
	ChunkToolUse:          "tool_use",
	ChunkToolUseStart:     "tool_use_start",
	ChunkToolUseDelta:     "tool_use_delta",
	ChunkToolResult:       "tool_result",
	ChunkDone:             "done",
	ChunkError:            "error",
	ChunkBlock:            "block",
	ChunkBlockStart:       "block_start",
	ChunkBlockFields:      "block_fields",
}

// String returns the chunk type as JavaScript names it.
func (k ChunkKind) String() string {
	if int(k) < len(chunkNames) && chunkNames[k] != "" {
		return chunkNames[k]
	}
	return "unknown"
}

// Chunk is one piece of a streamed model response, or a tool result, as the agent hands
// it over. Which fields matter depends on Kind.
type Chunk struct {
	Kind ChunkKind
	// Text is the delta of text, thinking or tool_use_delta (partial JSON), the signature,
	// the redacted_thinking data, or the error message.
	Text string
	// ID and Name: the message id of message_start and done; the tool id and name of
	// tool_use and tool_use_start.
	ID, Name string
	// Model, Provider and RequestID describe the request of message_start; done may name
	// the id and model too, for streams that report them only at the end.
	Model, Provider, RequestID string
	// State is the per-message state of message_start, MessageOptions as a JSON object, or
	// nil.
	State []byte
	// JSON is the input of tool_use, the content of tool_result (a JSON string or array),
	// the block of block and block_start, and the fields (an object) of block_fields.
	JSON []byte
	// ToolUseID, IsError and Raw belong to tool_result; Raw is the execution record, a JSON
	// object (stdout, stderr, interrupted, isImage, durationMs, exitCode), or nil.
	ToolUseID string
	IsError   bool
	Raw       []byte
	// StopReason, StopSequence and Usage (a JSON object) belong to done.
	StopReason, StopSequence string
	Usage                    []byte
}
