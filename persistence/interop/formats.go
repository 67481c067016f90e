package interop

import (
	"bufio"
	"bytes"
	"os"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/archive"
)

// The formats of import and export.
const (
	FormatClaudeCode = "claude-code" // Claude Code transcripts (JSONL)
	FormatCodex      = "codex"       // Codex CLI rollouts (JSONL)
	FormatJSONL      = "jsonl"       // sessionkeep's own JSONL: a header line, then one envelope a line
	FormatJSON       = "json"        // sessionkeep's own JSON: one document
	FormatMarkdown   = "markdown"    // for people; export only
)

// importFormats are the formats import reads.
var importFormats = map[string]bool{FormatClaudeCode: true, FormatCodex: true, FormatJSONL: true, FormatJSON: true}

// codexTypes are the record types of a Codex rollout.
var codexTypes = map[string]bool{"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true, "compacted": true}

// detect returns the format of the file at path from its first record: sessionkeep's own
// (its header names the format), a Codex rollout (a typed record with a payload), else a
// Claude Code transcript. It returns "" when the file holds no JSON object to tell by.
func detect(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64*1024)
	for {
		line, err := r.ReadBytes('\n')
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 && trimmed[0] == '{' {
			return detectRecord(trimmed, path)
		}
		if err != nil {
			return ""
		}
	}
}

func detectRecord(line []byte, path string) string {
	var head struct {
		Format  string          `json:"format"`
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	if json.Unmarshal(line, &head) != nil {
		if bytes.HasSuffix([]byte(path), []byte(".json")) {
			return FormatJSON // a document over several lines
		}
		return FormatClaudeCode // a damaged first line: the reader reports it
	}
	switch {
	case head.Format == archive.Format && bytes.HasSuffix([]byte(path), []byte(".json")):
		return FormatJSON
	case head.Format == archive.Format:
		return FormatJSONL
	case codexTypes[head.Type] && len(head.Payload) > 0:
		return FormatCodex
	}
	return FormatClaudeCode
}
