package interop

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sessionkeep/sessionkeep/persistence/aider"
	"github.com/sessionkeep/sessionkeep/persistence/opencode"
	"github.com/sessionkeep/sessionkeep/session"
)

// source is one file to import, with the subagent transcripts that sit beside it.
type source struct {
	path      string
	size      int64
	subagents []source
}

// findFiles returns the files to import under path, a file or a folder, each parent
// transcript with its subagent transcripts. In a folder, files are found by extension
// (.jsonl, and .json for the json format), by name (Gemini CLI's session-*.json and
// checkpoint-*.json, and its logs.json beside a chats folder or in .gemini/tmp/<project>, aider's .aider.chat.history.md, OpenCode's opencode.db) and by place
// (the session files of OpenCode's storage/session/); a file given by itself is read
// whatever its name.
func findFiles(path, format string) ([]source, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	var paths []string
	if !info.IsDir() {
		paths = append([]string{path}, subagentsBeside(path)...)
	} else if paths, err = walk(path, format); err != nil {
		return nil, err
	}
	return group(paths)
}

// walk lists the transcript files in a folder and its subfolders, in name order.
func walk(dir, format string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext, name := filepath.Ext(p), d.Name()
		geminiJSON := ext == ".json" && (strings.HasPrefix(name, "session-") || isGeminiCheckpoint(p) || isGeminiLogs(p)) && (format == "" || format == FormatGemini)
		other := name == aider.FileName || name == opencode.DatabaseName || (opencode.IsSessionFile(p) && format != FormatJSON)
		if d.Type().IsRegular() && (ext == ".jsonl" || (ext == ".json" && format == FormatJSON) || geminiJSON || other) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	sort.Strings(paths)
	return paths, nil
}

// subagentsBeside returns the subagent transcripts of the Claude Code transcript at path:
// <session>/subagents/agent-*.jsonl, or <session>__subagents__agent-*.jsonl in a flat copy.
func subagentsBeside(path string) []string {
	base := strings.TrimSuffix(path, filepath.Ext(path))
	nested, _ := filepath.Glob(filepath.Join(globEscape(base), "subagents", "agent-*.jsonl"))
	flat, _ := filepath.Glob(globEscape(base) + "__subagents__agent-*.jsonl")
	all := append(nested, flat...)
	sort.Strings(all)
	return all
}

// parentOf returns the transcript a subagent transcript belongs to, and whether path is
// one.
func parentOf(path string) (string, bool) {
	dir, name := filepath.Split(path)
	if !strings.HasPrefix(name, "agent-") && !strings.Contains(name, "__subagents__agent-") {
		return "", false
	}
	if i := strings.LastIndex(name, "__subagents__agent-"); i >= 0 {
		return dir + name[:i] + filepath.Ext(name), true
	}
	if filepath.Base(filepath.Clean(dir)) != "subagents" {
		return "", false
	}
	sessionDir := filepath.Dir(filepath.Clean(dir))
	return sessionDir + filepath.Ext(name), true
}

// group puts each subagent transcript after its parent, so that the parent's tool calls
// are known when the subagent's records are read. A subagent whose parent is not among the
// files is imported by itself.
func group(paths []string) ([]source, error) {
	byPath := map[string]*source{}
	var order []string
	for _, p := range paths {
		if _, dup := byPath[p]; dup {
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", session.ErrFileAccess, err)
		}
		byPath[p] = &source{path: p, size: info.Size()}
		order = append(order, p)
	}
	var out []source
	attached := map[string]bool{}
	for _, p := range order {
		if parent, ok := parentOf(p); ok && byPath[parent] != nil {
			byPath[parent].subagents = append(byPath[parent].subagents, *byPath[p])
			attached[p] = true
		}
	}
	for _, p := range order {
		if !attached[p] {
			out = append(out, *byPath[p])
		}
	}
	return out, nil
}

// globEscape escapes the characters filepath.Match treats specially.
func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}
