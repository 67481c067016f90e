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
// file under storage/session/.
func IsSessionFile(path string) bool {
	slashed := filepath.ToSlash(path)
	return strings.HasSuffix(slashed, ".json") && strings.Contains(slashed, "/storage/session/")
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
	for _, mf := range jsonFiles(filepath.Join(root, "message", info.ID)) {
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
		for _, pf := range jsonFiles(filepath.Join(root, "part", mi.ID)) {
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
