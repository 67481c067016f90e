package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
)

// IsSessionFile tells whether path is a session file of OpenCode's JSON storage: a .json
// file under storage/session/ (but not under storage/session/message/ and part/, where
// the first versions kept messages and parts).
func IsSessionFile(path string) bool {
	slashed := filepath.ToSlash(path)
	_, rest, ok := strings.Cut(slashed, "/storage/session/")
	return ok && strings.HasSuffix(rest, ".json") && !strings.HasPrefix(rest, "message/") && !strings.HasPrefix(rest, "part/")
}

// ReadSessionFile reads the session whose info is the storage file at path, with its
// messages and parts from the storage folder it is in (storage/message/<session>/ and
// storage/part/<message>/). A message or part file that cannot be read is reported in
// Skipped and left out.
func ReadSessionFile(path string) (*transcript.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var info sessionInfo
	if err := json.Unmarshal(data, &info); err != nil || info.ID == "" {
		return nil, fmt.Errorf("%s is not an OpenCode session file (a JSON object with an id)", path)
	}
	root := storageRoot(path)
	var skipped []transcript.Skipped
	skip := func(file, reason string) { skipped = append(skipped, transcript.Skipped{File: file, Reason: reason}) }
	var msgs []message
	for _, mf := range jsonFiles(firstFolder(filepath.Join(root, "message", info.ID), filepath.Join(root, "session", "message", info.ID))) {
		raw, err := os.ReadFile(mf)
		var mi messageInfo
		if err == nil {
			err = json.Unmarshal(raw, &mi)
		}
		if err != nil || mi.ID == "" {
			skip(mf, "not an OpenCode message (a JSON object with an id)")
			continue
		}
		m := message{info: mi, raw: raw}
		for _, pf := range jsonFiles(firstFolder(filepath.Join(root, "part", mi.ID), filepath.Join(root, "session", "part", info.ID, mi.ID))) {
			p, err := os.ReadFile(pf)
			if err != nil || !json.Valid(p) {
				skip(pf, "not a JSON part")
				continue
			}
			m.parts = append(m.parts, p)
		}
		msgs = append(msgs, m)
	}
	sort.SliceStable(msgs, func(i, j int) bool { return msgs[i].info.ID < msgs[j].info.ID })
	f := convert(info, msgs, path)
	f.Skipped = append(skipped, f.Skipped...)
	return f, nil
}

// firstFolder returns the first of the folders that exists: where later versions keep a
// session's messages or a message's parts, then where the first versions did.
func firstFolder(dirs ...string) string {
	for _, d := range dirs {
		if info, err := os.Stat(d); err == nil && info.IsDir() {
			return d
		}
	}
	return dirs[0]
}

// storageRoot is the storage folder a session file is in.
func storageRoot(path string) string {
	dir := filepath.Dir(path)
	for dir != filepath.Dir(dir) {
		if filepath.Base(dir) == "session" {
			return filepath.Dir(dir)
		}
		dir = filepath.Dir(dir)
	}
	return filepath.Dir(filepath.Dir(path))
}

// jsonFiles lists the .json files of a folder in name order (OpenCode's ids sort in the
// order they were made); none when it does not exist.
func jsonFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}
