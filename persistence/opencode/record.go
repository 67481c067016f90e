package opencode

import "github.com/goccy/go-json"

// sessionInfo is a session's info: a row of the session table, or a storage/session file.
type sessionInfo struct {
	ID        string `json:"id"`
	ProjectID string `json:"projectID"`
	ParentID  string `json:"parentID"`
	Directory string `json:"directory"`
	Title     string `json:"title"`
	Version   string `json:"version"`
	Time      struct {
		Created int64 `json:"created"`
		Updated int64 `json:"updated"`
	} `json:"time"`
}

// message is a message with its parts, in order.
type message struct {
	info  messageInfo
	raw   json.RawMessage // the info as stored, for the record's source
	parts []json.RawMessage
}

// messageInfo is a message's info (MessageV2.User or MessageV2.Assistant), the fields
// sessionkeep maps.
type messageInfo struct {
	ID   string `json:"id"`
	Role string `json:"role"`
	Time struct {
		Created   int64 `json:"created"`
		Completed int64 `json:"completed"`
	} `json:"time"`
	ModelID    string `json:"modelID"`
	ProviderID string `json:"providerID"`
	Model      struct {
		ProviderID string `json:"providerID"`
		ModelID    string `json:"modelID"`
	} `json:"model"`
	Path struct {
		Cwd  string `json:"cwd"`
		Root string `json:"root"`
	} `json:"path"`
	Tokens *tokens `json:"tokens"`
	Error  *struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
}

// tokens are the token counts of a message or a step.
type tokens struct {
	Input     int64 `json:"input"`
	Output    int64 `json:"output"`
	Reasoning int64 `json:"reasoning"`
	Cache     struct {
		Read  int64 `json:"read"`
		Write int64 `json:"write"`
	} `json:"cache"`
}

// part is a part of a message, the fields sessionkeep maps.
type part struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Ignored  bool            `json:"ignored"`
	Metadata json.RawMessage `json:"metadata"`
	Time     *struct {
		Start int64 `json:"start"`
		End   int64 `json:"end"`
	} `json:"time"`
	Mime     string  `json:"mime"`
	URL      string  `json:"url"`
	Filename string  `json:"filename"`
	CallID   string  `json:"callID"`
	Tool     string  `json:"tool"`
	State    *state  `json:"state"`
	Tokens   *tokens `json:"tokens"`
}

// state is a tool part's state: pending, running, completed or error.
type state struct {
	Status      string          `json:"status"`
	Input       json.RawMessage `json:"input"`
	Output      string          `json:"output"`
	Error       string          `json:"error"`
	Title       string          `json:"title"`
	Metadata    json.RawMessage `json:"metadata"`
	Attachments []part          `json:"attachments"`
	Time        struct {
		Start int64 `json:"start"`
		End   int64 `json:"end"`
	} `json:"time"`
}
