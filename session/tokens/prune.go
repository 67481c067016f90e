package tokens

import (
	"fmt"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// How much of an old tool output the pruned-tools strategy keeps, by kind of tool (seed
// 004, phase 3): a file read keeps its head and tail with the line count, search and shell
// output keep their first lines, anything else its first characters.
const (
	readHeadLines   = 10
	readTailLines   = 10
	firstLines      = 20
	maxLineChars    = 300
	OtherKeepChars  = 600
	pruneBelowChars = 1000 // outputs this short are kept as they are
	inputKeepChars  = 200  // of each long string in an old tool call's input
	inputPruneChars = 400
)

// toolKind is how a tool's output is shortened.
type toolKind int

const (
	kindOther toolKind = iota
	kindRead
	kindSearch
	kindShell
)

// kindOf classifies a tool by its name, across the agents whose transcripts sessionkeep
// keeps (Claude Code's Read and Bash, Codex's shell, read_file, grep_search …).
func kindOf(name string) toolKind {
	n := strings.ToLower(name)
	switch {
	case n == "" || strings.Contains(n, "write") || strings.Contains(n, "edit"):
		return kindOther
	case strings.Contains(n, "read") || n == "view" || n == "cat" || strings.Contains(n, "open_file"):
		return kindRead
	case strings.Contains(n, "grep") || strings.Contains(n, "glob") || strings.Contains(n, "search") ||
		strings.Contains(n, "find") || n == "ls" || strings.HasPrefix(n, "list"):
		return kindSearch
	case strings.Contains(n, "bash") || strings.Contains(n, "shell") || strings.Contains(n, "exec") ||
		strings.Contains(n, "command") || strings.Contains(n, "terminal") || n == "run":
		return kindShell
	}
	return kindOther
}

// FlattenResult returns a tool result's content as text (text blocks joined by newlines)
// and the number of images in it.
func FlattenResult(content json.RawMessage) (text string, images int) {
	if len(content) == 0 || content[0] == 'n' {
		return "", 0
	}
	if content[0] == '"' {
		json.Unmarshal(content, &text)
		return text, 0
	}
	var list []Block
	if json.Unmarshal(content, &list) != nil {
		return string(content), 0
	}
	var sb strings.Builder
	for _, b := range list {
		switch b.Type {
		case blocks.BlockText:
			if sb.Len() > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(b.Text)
		case blocks.BlockImage:
			images++
		}
	}
	return sb.String(), images
}

// PruneToolResult returns the text an old tool result is shortened to.
func PruneToolResult(content json.RawMessage, toolName string) string {
	text, images := FlattenResult(content)
	if images > 0 {
		text += fmt.Sprintf("\n[%d image(s) omitted]", images)
	}
	if len(text) <= pruneBelowChars {
		return text
	}
	lines := strings.Split(text, "\n")
	switch kindOf(toolName) {
	case kindRead:
		return pruneHeadTail(lines)
	case kindSearch:
		return pruneFirstLines("Search", lines, len(text))
	case kindShell:
		return pruneFirstLines("Command output", lines, len(text))
	}
	return fmt.Sprintf("[Tool output: %d chars]\n%s…", len(text), CutRunes(text, OtherKeepChars))
}

// pruneHeadTail keeps the first and last lines of a file read, and its line count.
func pruneHeadTail(lines []string) string {
	if len(lines) <= readHeadLines+readTailLines {
		return fmt.Sprintf("[File: %d lines]\n%s", len(lines), joinCut(lines))
	}
	omitted := len(lines) - readHeadLines - readTailLines
	return fmt.Sprintf("[File: %d lines]\n%s\n[... %d lines omitted ...]\n%s", len(lines),
		joinCut(lines[:readHeadLines]), omitted, joinCut(lines[len(lines)-readTailLines:]))
}

// pruneFirstLines keeps the first lines of search or shell output.
func pruneFirstLines(label string, lines []string, chars int) string {
	head := lines[:min(len(lines), firstLines)]
	out := fmt.Sprintf("[%s: %d lines, %d chars]\n%s", label, len(lines), chars, joinCut(head))
	if rest := len(lines) - len(head); rest > 0 {
		out += fmt.Sprintf("\n[... %d more lines]", rest)
	}
	return out
}

// joinCut joins lines, each cut to maxLineChars: one minified line can be megabytes.
func joinCut(lines []string) string {
	cut := make([]string, len(lines))
	for i, l := range lines {
		cut[i] = CutRunes(l, maxLineChars)
	}
	return strings.Join(cut, "\n")
}

// CutRunes returns at most n bytes of s, not splitting a UTF-8 character.
func CutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// PruneToolInput shortens the long strings in an old tool call's input (a Write call
// carries a whole file), keeping it a valid JSON object with the same keys.
func PruneToolInput(input json.RawMessage) (json.RawMessage, bool) {
	if len(input) <= pruneBelowChars {
		return input, false
	}
	var v any
	if json.Unmarshal(input, &v) != nil {
		return input, false
	}
	out, err := json.Marshal(pruneValue(v))
	if err != nil {
		return input, false
	}
	return out, true
}

func pruneValue(v any) any {
	switch v := v.(type) {
	case string:
		if len(v) > inputPruneChars {
			return fmt.Sprintf("%s[… %d chars omitted]", CutRunes(v, inputKeepChars), len(v)-inputKeepChars)
		}
	case map[string]any:
		for k, x := range v {
			v[k] = pruneValue(x)
		}
	case []any:
		for i, x := range v {
			v[i] = pruneValue(x)
		}
	}
	return v
}
