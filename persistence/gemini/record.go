package gemini

import "github.com/goccy/go-json"

// conversation is a ConversationRecord: the metadata of a session and its messages.
type conversation struct {
	SessionID   string            `json:"sessionId"`
	ProjectHash string            `json:"projectHash"`
	StartTime   string            `json:"startTime"`
	LastUpdated string            `json:"lastUpdated"`
	Summary     string            `json:"summary"`
	Directories []string          `json:"directories"`
	Kind        string            `json:"kind"`
	Messages    []json.RawMessage `json:"messages"`
}

// message is a MessageRecord.
type message struct {
	ID             string          `json:"id"`
	Timestamp      string          `json:"timestamp"`
	Type           string          `json:"type"`
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent"`
	ToolCalls      []toolCall      `json:"toolCalls"`
	Thoughts       []thought       `json:"thoughts"`
	Tokens         *tokens         `json:"tokens"`
	Model          string          `json:"model"`
}

// toolCall is a ToolCallRecord.
type toolCall struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        string          `json:"status"`
	Timestamp     string          `json:"timestamp"`
	AgentID       string          `json:"agentId"`
	DisplayName   string          `json:"displayName"`
	Description   string          `json:"description"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
	// RenderOutputAsMarkdown is how Gemini CLI shows the result (versions of 2026).
	RenderOutputAsMarkdown *bool `json:"renderOutputAsMarkdown"`
}

// thought is a ThoughtSummary with the time it was recorded.
type thought struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

// tokens is a TokensSummary: input is the whole prompt, cached tokens included.
type tokens struct {
	Input    int64 `json:"input"`
	Output   int64 `json:"output"`
	Cached   int64 `json:"cached"`
	Thoughts int64 `json:"thoughts"`
	Tool     int64 `json:"tool"`
	Total    int64 `json:"total"`
}
