package sqlite

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// bodySizes are blocks around bodycodec.LivePackAbove: small ones (packed by an import with its
// dictionary, plain when live) and ones over bodycodec.LivePackAbove (packed by both).
var bodySizes = []int{200, bodycodec.LivePackAbove / 2, 2 * bodycodec.LivePackAbove, 16 * bodycodec.LivePackAbove}

// writeSizedMessages writes one message per size of bodySizes to session id (a tool output
// of that size and a text block of a word to search for), each ended
// as an import ends its messages or as a live session does.
func writeSizedMessages(t *testing.T, s *Store, id string, imported bool) {
	t.Helper()
	ops := []session.Op{session.CreateSession{Info: newInfo(id)}}
	for i, n := range bodySizes {
		seq := int64(i)
		b := begin(id, seq)
		b.Header.UUID, b.Header.CreatedAt = fmt.Sprintf("%s-%d", id, seq), time.UnixMilli(1_700_000_000_000+seq)
		ops = append(ops, b,
			session.PutBlock{SessionID: id, Seq: seq, Index: 0, JSON: toolOutput(n, "")},
			session.PutBlock{SessionID: id, Seq: seq, Index: 1, JSON: []byte(fmt.Sprintf(`{"type":"text","text":"word%d"}`, i))},
			session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete, Imported: imported})
	}
	s.Apply(ops...)
	indexed(t, s)
}

// packedSeqs returns the seqs of session id's messages whose bodies are stored packed, in
// any of the stored forms (s2, or a dictionary's zstd or s2).
func packedSeqs(t *testing.T, path, id string) []int64 {
	t.Helper()
	rows, err := rawDB(t, path).Query(`SELECT m.seq FROM messages m JOIN sessions s ON s.sid = m.sid
		WHERE s.id = ? AND substr(m.body, 1, 1) IN (x'00', x'01', x'02') ORDER BY m.seq`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var seqs []int64
	for rows.Next() {
		var seq int64
		if err := rows.Scan(&seq); err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, seq)
	}
	return seqs
}

// storedForms returns the first byte of each of session id's message bodies, in hex, in
// seq order: which form each is stored in ("7B" plain, "00" s2, "01"/"02" a dictionary).
func storedForms(t *testing.T, path, id string) string {
	t.Helper()
	var forms string
	err := rawDB(t, path).QueryRow(`SELECT group_concat(f, ' ') FROM (SELECT hex(substr(m.body, 1, 1)) AS f
		FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.id = ? ORDER BY m.seq)`, id).Scan(&forms)
	if err != nil {
		t.Fatal(err)
	}
	return forms
}

// TestLiveBodiesArePackedOverTheirOwnThreshold: an import packs every body that shrinks
// (with its dictionary), a live session only those over bodycodec.LivePackAbove, whichever way the message was written (ended in
// the batch it began in, or streamed and ended later from its block rows); a fork's copy
// is stored as its original was.
func TestLiveBodiesArePackedOverTheirOwnThreshold(t *testing.T) {
	s, path := openTemp(t)
	writeSizedMessages(t, s, "imported", true)
	writeSizedMessages(t, s, "live", false)
	s.Apply(session.CreateSession{Info: newInfo("streamed")}, begin("streamed", 0),
		session.PutBlock{SessionID: "streamed", Seq: 0, Index: 0, JSON: toolOutput(2*bodycodec.LivePackAbove, "word")})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	s.Apply(session.EndMessage{SessionID: "streamed", Seq: 0, Status: session.MessageComplete})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{"imported", "live"} { // copied with the id renamed in each body
		fork := newInfo("a-longer-fork-of-" + from)
		fork.ForkedFrom = &session.ForkOrigin{SessionID: from, UUID: from + "-3"}
		s.Apply(session.ForkSession{From: from, Info: fork, Seqs: []int64{0, 1, 2, 3}})
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"imported": "[0 1 2 3]", "live": "[2 3]", "streamed": "[0]",
		"a-longer-fork-of-imported": "[0 1 2 3]", "a-longer-fork-of-live": "[2 3]"} {
		if got := fmt.Sprint(packedSeqs(t, path, id)); got != want {
			t.Errorf("session %s: bodies %s stored packed, want %s", id, got, want)
		}
	}
	for _, from := range []string{"imported", "live"} {
		if orig, fork := storedForms(t, path, from), storedForms(t, path, "a-longer-fork-of-"+from); fork != orig {
			t.Errorf("the fork of %s stores its bodies as %s, its original as %s", from, fork, orig)
		}
	}
}

// TestBodiesOfEitherThresholdReadTheSame: a session whose bodies an import packed (with its
// dictionary) reads the same as one whose live bodies are plain up to bodycodec.LivePackAbove,
// through every reader of bodies: a reader tells each stored form by its first byte, so
// bodies of every form (and a store main wrote, packed with s2 over 1 KB) live side by side
// with no migration.
func TestBodiesOfEitherThresholdReadTheSame(t *testing.T) {
	s, path := openTemp(t)
	writeSizedMessages(t, s, "before", true)
	writeSizedMessages(t, s, "after", false)
	if before, after := packedSeqs(t, path, "before"), packedSeqs(t, path, "after"); len(before) <= len(after) {
		t.Fatalf("packed bodies %v before and %v after: the two stores do not differ", before, after)
	}
	encoded := func(id string) [][]byte {
		var out [][]byte
		err := s.ScanEncoded(id, 0, func(m *session.StoredMessage) error {
			out = append(out, bytes.ReplaceAll(bytes.Join(m.Encoded, nil), []byte(id), []byte("ID")))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before, after := encoded("before"), encoded("after")
	if len(before) != len(bodySizes) || fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("ScanEncoded reads %d and %d messages, or different bytes", len(before), len(after))
	}
	blocks := func(id string) [][]byte {
		var out [][]byte
		for _, m := range scan(t, s, id) {
			out = append(out, m.Blocks...)
		}
		err := s.ScanMessagesBackward(id, 0, func(m *session.StoredMessage) bool {
			out = append(out, m.Blocks...)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if b, a := blocks("before"), blocks("after"); len(b) != 4*len(bodySizes) || fmt.Sprint(b) != fmt.Sprint(a) {
		t.Errorf("scans read %d and %d blocks, or different ones", len(b), len(a))
	}
	for i := range bodySizes {
		hits, err := s.Search(catalog.SearchQuery{Text: fmt.Sprintf("word%d", i), Limit: 10})
		if err != nil || len(hits) != 2 || hits[0].Snippet != hits[1].Snippet {
			t.Errorf("search for the word of message %d: %+v, %v; want both sessions, one snippet", i, hits, err)
		}
	}
}

// TestImportPacksAtItsOwnThreshold: through the session manager, a small body an import
// writes (importing.Import, RecordWriter) is packed, the same message appended to a live
// session is not (it is under bodycodec.LivePackAbove).
func TestImportPacksAtItsOwnThreshold(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	text := toolOutput(bodycodec.LivePackAbove/2, "")
	at := time.UnixMilli(1_700_000_000_000)
	rec := importing.Record{UUID: "u1", Type: session.TypeUser, Role: "user", CreatedAt: at,
		Blocks: []session.RecordBlock{{JSON: text}}}
	target := importing.ImportTarget{Info: session.SessionInfo{ID: "imported", CreatedAt: at, UpdatedAt: at}}
	if _, err := importing.Import(m, target, []importing.Record{rec}); err != nil {
		t.Fatal(err)
	}
	live := mustCreate(t, m, session.CreateOptions{})
	if _, err := live.AppendUserMessage([]byte(`[` + string(text) + `]`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, rawDB(t, path), `SELECT COUNT(*) FROM messages WHERE length(unpack_body(body)) > ?`, bodycodec.LivePackAbove/2); n != 2 {
		t.Fatalf("%d bodies of the text stored, want 2", n)
	}
	if got := fmt.Sprint(packedSeqs(t, path, "imported")); got != "[0]" {
		t.Errorf("imported bodies %s packed, want [0]", got)
	}
	if got := fmt.Sprint(packedSeqs(t, path, live.ID())); got != "[]" {
		t.Errorf("live bodies %s packed, want none", got)
	}
}

// TestForkOfAnImportedSessionReadsAsItsOrigin: a fork of a session an import wrote, under
// an id as long as its origin's (which forkCopies renames in SQL, in plain bodies only) or
// a longer one (copyForkBodies), reads back the origin's blocks under its own id, its
// bodies still packed with the dictionary: a packed body is never edited as text.
func TestForkOfAnImportedSessionReadsAsItsOrigin(t *testing.T) {
	const origin = "0f3c2a10-5b7e-4c1d-9a2e-00000000000a"
	for _, forkID := range []string{"0f3c2a10-5b7e-4c1d-9a2e-00000000000b", "a-fork-with-a-longer-id-than-its-origin"} {
		s, path := openTemp(t)
		writeSizedMessages(t, s, origin, true)
		fork := newInfo(forkID)
		fork.ForkedFrom = &session.ForkOrigin{SessionID: origin, UUID: origin + "-3"}
		s.Apply(session.ForkSession{From: origin, Info: fork, Seqs: []int64{0, 1, 2, 3}})
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
		if got, want := storedForms(t, path, forkID), storedForms(t, path, origin); got != want {
			t.Errorf("fork %s stores its bodies as %s, its origin as %s", forkID, got, want)
		}
		var want, got [][]byte
		for _, m := range scan(t, s, origin) {
			want = append(want, m.Blocks...)
		}
		for _, m := range scan(t, s, forkID) {
			got = append(got, m.Blocks...)
		}
		if len(got) != 2*len(bodySizes) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("fork %s reads %d blocks, or not its origin's", forkID, len(got))
		}
		err := s.ScanEncoded(forkID, 0, func(m *session.StoredMessage) error {
			if !bytes.Contains(bytes.Join(m.Encoded, nil), []byte(`"sessionId":"`+forkID+`"`)) {
				t.Errorf("fork %s: message %d does not name the fork", forkID, m.Seq)
			}
			return nil
		})
		if err != nil {
			t.Errorf("fork %s: %v", forkID, err)
		}
	}
}
