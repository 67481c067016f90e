package sqlite

import (
	"encoding/json"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// The listing the bridge encodes row by row (EachListed) is, made back into objects, the
// JSON of ListSessions's listing, for every filter and field selection, a damaged row
// (listed as corrupted) included, whole or cut into parts.
func TestEncodedListingIsWhatListSessionsLists(t *testing.T) {
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
		got := listedObjects(t, m, f, wholeListing)
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
		if got != string(expected) {
			t.Errorf("%+v:\n got %s\nwant %s", f, got, expected)
		}
		if joined := listedObjects(t, m, f, partLimit); joined != string(expected) {
			t.Errorf("%+v: parts joined:\n got %s\nwant %s", f, joined, expected)
		}
	}
	got := listedObjects(t, m, catalog.ListFilter{Fields: []string{"id", "status"}, IncludeArchived: true}, wholeListing)
	var rows []map[string]any
	json.Unmarshal([]byte(got), &rows)
	if len(rows) != 4 {
		t.Errorf("%d sessions with archived ones, want 4: %s", len(rows), got)
	}
}

// partLimit is the part size that cuts every listing of more than one session: smaller
// than one session's values.
var partLimit = session.PartSize{Flush: 60, Max: 120}

// wholeListing is a part size no test's listing reaches: one part.
var wholeListing = session.PartSize{Flush: 1 << 20, Max: 1 << 20}

// listedObjects encodes filter's listing as the bridge does (EncodeListValues, in parts of
// size) and makes it back into one JSON array of objects, as ts/listing.ts does: each
// session's values under the names of the first part, a null value left out. It fails t if
// a part is not a JSON array, holds more than one session past Max, or the values do not
// fill whole sessions.
func listedObjects(t *testing.T, m *session.Manager, filter catalog.ListFilter, size session.PartSize) string {
	t.Helper()
	var names []string
	var values []json.RawMessage
	err := catalog.EncodeListValues(m, filter, size, nil, func(part []byte) ([]byte, error) {
		var items []json.RawMessage
		if err := json.Unmarshal(part, &items); err != nil {
			t.Fatalf("part %s: %v", part, err)
		}
		if names == nil {
			if len(items) == 0 || json.Unmarshal(items[0], &names) != nil {
				t.Fatalf("the first part does not begin with the names: %s", part)
			}
			items = items[1:]
		}
		if len(part) > size.Max && len(items) > len(names) {
			t.Errorf("a part of %d values is %d bytes, over %d", len(items), len(part), size.Max)
		}
		values = append(values, items...)
		return nil, nil
	})
	if err != nil {
		t.Fatalf("%+v: %v", filter, err)
	}
	if len(names) == 0 || len(values)%len(names) != 0 {
		t.Fatalf("%d values for the %d names %v", len(values), len(names), names)
	}
	out := []byte{'['}
	for i := 0; i < len(values); i += len(names) {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '{')
		first := true
		for j, name := range names {
			if string(values[i+j]) == "null" {
				continue
			}
			if !first {
				out = append(out, ',')
			}
			first = false
			out = append(append(append(append(out, '"'), name...), `":`...), values[i+j]...)
		}
		out = append(out, '}')
	}
	return string(append(out, ']'))
}

// discardPart drops a part of a listing and hands its buffer back for the next.
func discardPart(part []byte) ([]byte, error) { return part[:0], nil }
