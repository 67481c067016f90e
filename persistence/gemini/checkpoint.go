package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// CheckpointPrefix begins the name of the file /chat save <tag> writes
// (~/.gemini/tmp/<project>/checkpoint-<tag>.json).
const CheckpointPrefix = "checkpoint-"

// content is one turn of a checkpoint: the Content the Gemini API was sent.
type content struct {
	Role  string          `json:"role"`
	Parts json.RawMessage `json:"parts"`
}

// readCheckpoint reads a checkpoint, the history /chat save wrote: a JSON array of
// Contents (role user or model, parts). It has no ids, times, usage or model: the session
// is named by the file (its id made from its path) and its records are given the file's
// time.
func readCheckpoint(data []byte, path string) (*transcript.File, error) {
	var turns []content
	if err := json.Unmarshal(data, &turns); err != nil {
		return nil, fmt.Errorf("%s is not a Gemini CLI checkpoint (an array of {role, parts}): %v", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	id := transcript.SyntheticUUID("gemini checkpoint", []byte(abs), 0)
	c := &converter{chain: transcript.Chain{SessionID: id, Format: Format}, cwd: projectRoot(path)}
	for i, turn := range turns {
		rec := importing.Record{Type: session.TypeUser, Role: "user", Provider: Provider, Blocks: parts(turn.Parts)}
		if turn.Role == "model" {
			rec.Type, rec.Role = session.TypeAssistant, "assistant"
		} else if len(rec.Blocks) > 0 && blockType(rec.Blocks[0]) == blocks.BlockToolResult {
			rec.Type = session.TypeToolResult
		} else if c.prompt == "" {
			c.prompt = firstText(rec.Blocks)
		}
		if len(rec.Blocks) == 0 {
			rec.Role = ""
		}
		c.chain.Add(fmt.Sprintf("#%d", i), rec, session.EnvelopeExtra{}, map[string]any{"record": "checkpoint", "role": turn.Role}, c.cwd)
	}
	at := fileTime(path)
	first, last := transcript.FillTimes(c.chain.Records, at)
	tag := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), CheckpointPrefix), filepath.Ext(path))
	return &transcript.File{Path: path, Records: c.chain.Records, Target: importing.ImportTarget{Info: session.SessionInfo{
		ID: id, ProjectPath: c.cwd, Title: session.TitleFrom("checkpoint " + tag + ": " + c.prompt), Provider: Provider,
		CreatedAt: first, UpdatedAt: last, Status: session.StatusActive,
	}}}, nil
}

// fileTime is when the file at path was last written, or now.
func fileTime(path string) time.Time {
	if info, err := os.Stat(path); err == nil {
		return info.ModTime().UTC()
	}
	return time.Now().UTC()
}
