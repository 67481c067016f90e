package opencode

import (
	"bytes"
	"fmt"
	"io"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
)

// exported is what `opencode export <session>` prints: the session's info, and each
// message's info with its parts.
type exported struct {
	Info     *sessionInfo `json:"info"`
	Messages []struct {
		Info  json.RawMessage   `json:"info"`
		Parts []json.RawMessage `json:"parts"`
	} `json:"messages"`
}

// IsExport tells, from the start of a JSON document, whether it is what `opencode export`
// prints: an object whose first member is the session's "info", an id beginning "ses_".
func IsExport(head []byte) bool {
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(head), []byte("{"))
	rest = bytes.TrimSpace(rest)
	if !ok || !bytes.HasPrefix(rest, []byte(`"info"`)) {
		return false
	}
	info, _, _ := bytes.Cut(rest, []byte("}"))
	return bytes.Contains(info, []byte(`"ses_`))
}

// ReadExport reads a session `opencode export` printed, r named path in what it reports.
// A message that cannot be read is reported in Skipped and left out.
func ReadExport(r io.Reader, path string) (*transcript.File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var doc exported
	if err := json.Unmarshal(data, &doc); err != nil || doc.Info == nil || doc.Info.ID == "" {
		return nil, fmt.Errorf("%s is not an OpenCode export (an object of a session's info and messages)", path)
	}
	var msgs []message
	var skipped []transcript.Skipped
	for i, m := range doc.Messages {
		var info messageInfo
		if err := json.Unmarshal(m.Info, &info); err != nil || info.ID == "" {
			skipped = append(skipped, transcript.Skipped{File: path, Line: i + 1, Reason: "not an OpenCode message (an info with an id)"})
			continue
		}
		msgs = append(msgs, message{info: info, raw: m.Info, parts: m.Parts})
	}
	f := convert(*doc.Info, msgs, path)
	f.Skipped = append(skipped, f.Skipped...)
	return f, nil
}
