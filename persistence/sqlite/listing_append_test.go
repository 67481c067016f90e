package sqlite

import (
	"encoding/json"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// The listing the bridge encodes row by row (EachListed) is the JSON of ListSessions's
// listing, for every filter and field selection, a damaged row (listed as corrupted)
// included, and cut into parts it is the same sessions in the same order.
func TestAppendListingEncodesWhatListSessionsLists(t *testing.T) {
	s, path, m, a, _ := twoSessions(t)
	for _, opts := range []session.CreateOptions{{ProjectPath: "/elsewhere", Title: "caf\u00e9 \u2192 \"quoted\""}, {Title: "archived"}} {
		mustCreate(t, m, opts)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	list, _ := s.ListSessions(catalog.ListFilter{Want: session.InfoID | session.InfoTitle})
	for _, info := range list {
		if info.Title == "archived" {
			if err := catalog.Archive(m, info.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	exec(t, rawDB(t, path), `UPDATE sessions SET message_count = 'many' WHERE id = ?`, a)
	filters := []catalog.ListFilter{
		{},
		{Fields: []string{"id", "title", "messageCount", "updatedAt"}},
		{Fields: []string{"id", "status", "corruption"}},
		{ProjectPath: "/elsewhere"},
		{IncludeArchived: true, Fields: []string{"id", "archivedAt"}},
		{Limit: 1, Offset: 1},
		{Offset: 2},
	}
	for _, f := range filters {
		got, err := catalog.AppendList(m, f, nil)
		if err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		if !json.Valid(got) {
			t.Fatalf("%+v: not JSON: %s", f, got)
		}
		want, _ := session.ParseInfoFields(f.Fields)
		f.Want = want
		infos, err := s.ListSessions(f)
		if err != nil {
			t.Fatal(err)
		}
		expected := []byte{'['}
		for i := range infos {
			if i > 0 {
				expected = append(expected, ',')
			}
			expected = session.AppendInfo(expected, &infos[i], want)
		}
		expected = append(expected, ']')
		if string(got) != string(expected) {
			t.Errorf("%+v:\n got %s\nwant %s", f, got, expected)
		}
		if joined := joinedParts(t, m, f); joined != string(expected) {
			t.Errorf("%+v: parts joined:\n got %s\nwant %s", f, joined, expected)
		}
	}
	got, _ := catalog.AppendList(m, catalog.ListFilter{Fields: []string{"id", "status"}, IncludeArchived: true}, nil)
	var rows []map[string]any
	json.Unmarshal(got, &rows)
	if len(rows) != 4 {
		t.Errorf("%d sessions with archived ones, want 4: %s", len(rows), got)
	}
}

// partLimit is the part size joinedParts cuts at: smaller than one session's listing, so
// every listing of more than one session is cut.
var partLimit = session.PartSize{Flush: 60, Max: 120}

// joinedParts encodes filter's listing in parts of partLimit and returns them joined into
// one array, failing t if a part is not a JSON array or holds more than one session past
// Max.
func joinedParts(t *testing.T, m *session.Manager, filter catalog.ListFilter) string {
	t.Helper()
	joined := []byte{'['}
	err := catalog.EncodeList(m, filter, partLimit, nil, func(part []byte) ([]byte, error) {
		var items []json.RawMessage
		if err := json.Unmarshal(part, &items); err != nil {
			t.Fatalf("part %s: %v", part, err)
		}
		if len(part) > partLimit.Max && len(items) > 1 {
			t.Errorf("a part of %d sessions is %d bytes, over %d", len(items), len(part), partLimit.Max)
		}
		for _, item := range items {
			if len(joined) > 1 {
				joined = append(joined, ',')
			}
			joined = append(joined, item...)
		}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(append(joined, ']'))
}
