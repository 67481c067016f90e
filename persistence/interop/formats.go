package interop

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/aider"
	"github.com/sessionkeep/sessionkeep/persistence/archive"
	"github.com/sessionkeep/sessionkeep/persistence/gemini"
	"github.com/sessionkeep/sessionkeep/persistence/opencode"
)

// The formats of import and export.
const (
	FormatClaudeCode = "claude-code" // Claude Code transcripts (JSONL)
	FormatCodex      = "codex"       // Codex CLI rollouts (JSONL)
	FormatJSONL      = "jsonl"       // sessionkeep's own JSONL: a header line, then one envelope a line
	FormatJSON       = "json"        // sessionkeep's own JSON: one document
	FormatMarkdown   = "markdown"    // for people; export only
	FormatGemini     = "gemini"      // Gemini CLI chat files (JSONL, or the JSON of older versions)
	FormatAider      = "aider"       // aider's .aider.chat.history.md
	FormatOpenCode   = "opencode"    // OpenCode's database, or a session file of its older JSON storage
)

// importFormats are the formats import reads.
var importFormats = map[string]bool{FormatClaudeCode: true, FormatCodex: true, FormatJSONL: true, FormatJSON: true,
	FormatGemini: true, FormatAider: true, FormatOpenCode: true}

// sqliteHeader begins every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// codexTypes are the record types of a Codex rollout.
var codexTypes = map[string]bool{"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true, "compacted": true}

// detect returns the format of the file at path from its first record: sessionkeep's own
// (its header names the format), a Codex rollout (a typed record with a payload), a Gemini
// CLI chat file (a record with a sessionId and a projectHash), else a Claude Code
// transcript. An aider history is told by its first line, OpenCode's database by being a
// SQLite database, its session files by their place in its storage and what `opencode
// export` prints by its first member (the session's info), a Gemini CLI
// checkpoint and prompt log (logs.json) by their names. It returns "" when
// the file holds no JSON object to tell by.
func detect(path string) string {
	if opencode.IsSessionFile(path) {
		return FormatOpenCode
	}
	if isGeminiCheckpoint(path) || gemini.IsLogsFile(path) {
		return FormatGemini
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64*1024)
	if head, _ := r.Peek(len(sqliteHeader)); string(head) == sqliteHeader {
		return FormatOpenCode
	}
	for {
		line, err := r.ReadBytes('\n')
		if trimmed := bytes.TrimSpace(line); bytes.HasPrefix(trimmed, []byte(aider.StartPrefix)) {
			return FormatAider
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 && trimmed[0] == '{' {
			if len(trimmed) == 1 && geminiDocument(r) {
				return FormatGemini
			}
			if head, _ := r.Peek(4096); opencode.IsExport(append(append([]byte(nil), trimmed...), head...)) {
				return FormatOpenCode
			}
			return detectRecord(trimmed, path)
		}
		if err != nil {
			return ""
		}
	}
}

func detectRecord(line []byte, path string) string {
	var head struct {
		Format      string          `json:"format"`
		Type        string          `json:"type"`
		Payload     json.RawMessage `json:"payload"`
		SessionID   string          `json:"sessionId"`
		ProjectHash string          `json:"projectHash"`
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
	case head.SessionID != "" && head.ProjectHash != "":
		return FormatGemini
	}
	return FormatClaudeCode
}

// isSQLite tells whether the file at path is a SQLite database, by its header.
func isSQLite(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, _ := f.Read(head)
	return string(head[:n]) == sqliteHeader
}

// geminiDocument tells, from the lines after a document's opening brace, whether it is
// the ConversationRecord older Gemini CLI versions wrote: its first member is the
// sessionId, and a projectHash follows.
func geminiDocument(r *bufio.Reader) bool {
	head, _ := r.Peek(4096)
	first := bytes.TrimSpace(head)
	return bytes.HasPrefix(first, []byte(`"sessionId"`)) && bytes.Contains(head, []byte(`"projectHash"`))
}

// isGeminiCheckpoint tells whether path is named as Gemini CLI's /chat save names its
// checkpoints: checkpoint-<tag>.json.
func isGeminiCheckpoint(path string) bool {
	name := filepath.Base(path)
	return strings.HasPrefix(name, gemini.CheckpointPrefix) && strings.HasSuffix(name, ".json")
}

// isGeminiLogs tells whether path is Gemini CLI's logs.json in a folder, by its place: a
// project's folder, which holds a chats folder or sits in Gemini CLI's .gemini/tmp (a
// file of that common name elsewhere is not looked at).
func isGeminiLogs(path string) bool {
	if !gemini.IsLogsFile(path) {
		return false
	}
	dir := filepath.Dir(path)
	if tmp := filepath.Dir(dir); filepath.Base(tmp) == "tmp" && filepath.Base(filepath.Dir(tmp)) == ".gemini" {
		return true
	}
	info, err := os.Stat(filepath.Join(dir, "chats"))
	return err == nil && info.IsDir()
}
