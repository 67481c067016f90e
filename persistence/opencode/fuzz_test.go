package opencode

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
)

// FuzzConvert converts random messages, one a line ({"info": …, "parts": […]}), seeded
// with the fixture's conversation: converting never fails on content (a damaged message
// is skipped and reported), and what it makes imports.
func FuzzConvert(f *testing.F) {
	var seed bytes.Buffer
	for _, m := range conversation() {
		m.info["id"] = m.id
		line, _ := json.Marshal(map[string]any{"info": m.info, "parts": m.parts})
		seed.Write(append(line, '\n'))
	}
	f.Add(seed.Bytes())
	m := importcheck.Store(f)
	f.Fuzz(func(t *testing.T, text []byte) {
		var msgs []message
		for _, line := range bytes.Split(text, []byte("\n")) {
			var in struct {
				Info  json.RawMessage   `json:"info"`
				Parts []json.RawMessage `json:"parts"`
			}
			if json.Unmarshal(line, &in) != nil {
				continue
			}
			var info messageInfo
			if json.Unmarshal(in.Info, &info) != nil {
				continue
			}
			msgs = append(msgs, message{info: info, raw: in.Info, parts: in.Parts})
		}
		file := convert(sessionInfo{ID: "ses_fuzz"}, msgs, "fuzz")
		importcheck.Import(t, m, file)
	})
}
