package markdown

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// Write writes a session as Markdown.
func Write(w io.Writer, st session.SessionState, scan session.Scan) error {
	bw := bufio.NewWriterSize(w, 64*1024)
	md := &writer{w: bw, toolNames: map[string]string{}}
	md.header(st)
	if err := scan(md.record); err != nil {
		return err
	}
	return bw.Flush()
}

// writer writes the records of one session.
type writer struct {
	w         *bufio.Writer
	toolNames map[string]string // tool_use id → tool name, to name results
}

func (md *writer) printf(format string, args ...any) { fmt.Fprintf(md.w, format, args...) }

// header writes the title and what the listing says of the session.
func (md *writer) header(st session.SessionState) {
	info := st.Info
	title := info.Title
	if title == "" {
		title = "Session " + info.ID
	}
	md.printf("# %s\n\n", oneLine(title))
	md.printf("- Session: `%s`\n", info.ID)
	if info.ProjectPath != "" {
		md.printf("- Project: `%s`\n", info.ProjectPath)
	}
	if info.Model != "" {
		md.printf("- Model: %s\n", info.Model)
	}
	md.printf("- Created: %s · updated: %s\n", jsonenc.FormatTime(info.CreatedAt), jsonenc.FormatTime(info.UpdatedAt))
	if t := st.Tracker; t.InputTokens+t.OutputTokens+t.CacheReadInputTokens+t.CacheCreationInputTokens > 0 {
		md.printf("- Tokens: %d in, %d out, %d cache read, %d cache write\n",
			t.InputTokens, t.OutputTokens, t.CacheReadInputTokens, t.CacheCreationInputTokens)
	}
	md.printf("\n")
}

// record writes one stored record: a message under a heading (a record that continues the
// message before it, under that one), or a line for a notice worth reading.
func (md *writer) record(m *session.StoredMessage) error {
	var extra session.EnvelopeExtra
	if len(m.Extra) > 2 {
		if err := json.Unmarshal(m.Extra, &extra); err != nil {
			return err
		}
	}
	if m.Role == "" {
		md.notice(m, extra)
		return nil
	}
	if !m.Continues {
		md.heading(m, extra)
	}
	for _, b := range m.Blocks {
		md.block(b)
	}
	return nil
}

// heading starts a message: who, when, and for a subagent's message, which subagent.
func (md *writer) heading(m *session.StoredMessage, extra session.EnvelopeExtra) {
	who := map[string]string{session.TypeUser: "User", session.TypeAssistant: "Assistant", session.TypeToolResult: "Tool results"}[m.Type]
	if who == "" {
		who = strings.ToUpper(m.Role[:1]) + m.Role[1:]
	}
	if m.IsSidechain {
		agent := extra.AgentID
		if agent == "" {
			agent = "subagent"
		}
		who = fmt.Sprintf("↳ %s · %s", agent, who)
	}
	md.printf("## %s\n\n*%s", who, jsonenc.FormatTime(m.CreatedAt))
	if m.Status != session.MessageComplete {
		md.printf(" · %s", m.Status)
	}
	if extra.Error != "" {
		md.printf(" · %s", oneLine(extra.Error))
	}
	md.printf("*\n\n")
}

// notice writes what a person wants to see of a record that is not a message: a summary,
// a compaction, a system message. Progress reports and the like are left out.
func (md *writer) notice(m *session.StoredMessage, extra session.EnvelopeExtra) {
	var src struct {
		Record struct {
			Summary string `json:"summary"`
			Subtype string `json:"subtype"`
			Content string `json:"content"`
			Level   string `json:"level"`
		} `json:"record"`
	}
	json.Unmarshal(extra.Source, &src)
	r := src.Record
	switch {
	case m.Type == "summary" && r.Summary != "":
		md.printf("> **Summary:** %s\n\n", oneLine(r.Summary))
	case m.Type == "system" && r.Subtype == "compact_boundary":
		md.printf("---\n\n*Conversation compacted · %s*\n\n", jsonenc.FormatTime(m.CreatedAt))
	case m.Type == "system" && r.Content != "":
		md.printf("> *%s:* %s\n\n", orDefault(r.Level, "system"), oneLine(r.Content))
	}
}

// block writes one content block.
func (md *writer) block(raw []byte) {
	var b struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		Thinking  string          `json:"thinking"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
		IsError   bool            `json:"is_error"`
		Title     string          `json:"title"`
		Source    struct {
			Type      string `json:"type"`
			MediaType string `json:"media_type"`
			Data      string `json:"data"`
			URL       string `json:"url"`
		} `json:"source"`
		Summary []struct {
			Text string `json:"text"`
		} `json:"summary"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return
	}
	switch b.Type {
	case blocks.BlockText:
		md.printf("%s\n\n", strings.TrimRight(b.Text, "\n"))
	case blocks.BlockThinking:
		md.folded("Thinking", b.Thinking)
	case "reasoning":
		var parts []string
		for _, s := range b.Summary {
			parts = append(parts, s.Text)
		}
		md.folded("Reasoning", strings.Join(parts, "\n\n"))
	case blocks.BlockRedactedThinking:
		md.printf("*[redacted thinking]*\n\n")
	case blocks.BlockToolUse:
		md.toolNames[b.ID] = b.Name
		md.printf("**Tool call** `%s` (`%s`)\n\n", b.Name, b.ID)
		md.fenced("json", indentJSON(b.Input))
	case blocks.BlockToolResult:
		label := "Result"
		if b.IsError {
			label = "Error"
		}
		md.printf("**%s** of `%s` (`%s`)\n\n", label, orDefault(md.toolNames[b.ToolUseID], "tool"), b.ToolUseID)
		md.fenced("", resultText(b.Content))
	case blocks.BlockImage:
		md.printf("*[image: %s]*\n\n", describeSource(b.Source.Type, b.Source.MediaType, b.Source.Data, b.Source.URL))
	case blocks.BlockDocument:
		md.printf("*[document%s: %s]*\n\n", titled(b.Title), describeSource(b.Source.Type, b.Source.MediaType, b.Source.Data, b.Source.URL))
	default:
		md.printf("*[%s block]*\n\n", b.Type)
	}
}

// folded writes text inside a <details> element, closed by default.
func (md *writer) folded(summary, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	md.printf("<details><summary>%s</summary>\n\n%s\n\n</details>\n\n", summary, strings.TrimRight(text, "\n"))
}

// fenced writes text in a fenced code block whose fence no run of backticks in it can end.
func (md *writer) fenced(lang, text string) {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	md.printf("%s%s\n%s\n%s\n\n", fence, lang, strings.TrimRight(text, "\n"), fence)
}
