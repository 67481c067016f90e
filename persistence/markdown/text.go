package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goccy/go-json"
)

// resultText returns a tool result's content as text: a string as it is, the text of its
// blocks joined, other blocks named.
func resultText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return string(content)
	}
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		} else {
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// indentJSON returns JSON indented for reading, or as it is when it cannot be.
func indentJSON(raw json.RawMessage) string {
	var out bytes.Buffer
	if json.Indent(&out, raw, "", "  ") != nil {
		return string(raw)
	}
	return out.String()
}

// describeSource says what a media source holds without its bytes.
func describeSource(kind, mediaType, data, url string) string {
	switch kind {
	case "base64":
		return fmt.Sprintf("%s, %d bytes", orDefault(mediaType, "unknown type"), len(data)*3/4)
	case "url":
		return url
	case "text":
		return fmt.Sprintf("%s, %d characters", orDefault(mediaType, "text"), len([]rune(data)))
	}
	return orDefault(kind, "unknown source")
}

func titled(title string) string {
	if title == "" {
		return ""
	}
	return " “" + oneLine(title) + "”"
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// oneLine collapses text to one line, for headings and list items.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
