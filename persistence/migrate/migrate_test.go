package migrate_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/migrate"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// fill writes a store with a plain conversation, a hosted agent's keyed session with a
// checkpoint, and an archived session; it returns their ids.
func fill(t *testing.T, e *sessiontest.Env) []string {
	t.Helper()
	plain := sessiontest.WithMessages(t, e, sessiontest.Conversation(4, false))
	defer plain.Close()
	keyed, err := e.Mgr.ByKey("acme:general:bot", true, session.CreateOptions{ProjectPath: "/proj"})
	if err != nil {
		t.Fatal(err)
	}
	defer keyed.Close()
	sessiontest.Prompt(t, keyed, "hello from the channel")
	if err := keyed.CommitCheckpoint(42); err != nil {
		t.Fatal(err)
	}
	archived := sessiontest.WithMessages(t, e, sessiontest.Conversation(2, true))
	defer archived.Close()
	if err := e.Mgr.Manage(session.SetArchived{SessionID: archived.ID(), At: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	if err := e.Mgr.Sync(); err != nil {
		t.Fatal(err)
	}
	return []string{plain.ID(), keyed.ID(), archived.ID()}
}

// export reads session id as sessionkeep's own JSONL, header and every envelope.
func export(t *testing.T, e *sessiontest.Env, id string) []byte {
	t.Helper()
	var out []byte
	err := e.Mgr.Export(id, func(st session.SessionState, scan session.Scan) error {
		var msgs bytes.Buffer
		err := scan(func(m *session.StoredMessage) error {
			msgs.Write(session.AppendEnvelope(nil, m))
			msgs.WriteByte('\n')
			return nil
		})
		out = msgs.Bytes()
		return err
	})
	if err != nil {
		t.Fatalf("export %s: %v", id, err)
	}
	return out
}

func TestAMovedStoreReadsAsTheSourceAndASecondRunCopiesNothing(t *testing.T) {
	from, to := sessiontest.NewEnv(t), sessiontest.NewEnv(t)
	ids := fill(t, from)

	var reports []migrate.Progress
	result, err := migrate.Run(from.Mgr, to.Mgr, func(p migrate.Progress) { reports = append(reports, p) })
	if err != nil {
		t.Fatal(err)
	}
	if result.SessionCount != 3 || result.Records == 0 || result.Existing != 0 || len(result.Skipped) != 0 {
		t.Fatalf("first run: %+v", result)
	}
	if len(reports) != 3 || reports[2].SessionsDone != 3 || reports[2].SessionsTotal != 3 {
		t.Fatalf("progress: %+v", reports)
	}
	for _, id := range ids {
		if got, want := export(t, to, id), export(t, from, id); !bytes.Equal(got, want) {
			t.Fatalf("session %s moved as\n%s\nnot\n%s", id, got, want)
		}
		src, _ := from.Store.LoadSession(id)
		dst, _ := to.Store.LoadSession(id)
		if dst.Info.Key != src.Info.Key || dst.Info.ArchivedAt.IsZero() != src.Info.ArchivedAt.IsZero() ||
			(src.Info.Checkpoint != nil && (dst.Info.Checkpoint == nil || *dst.Info.Checkpoint != *src.Info.Checkpoint)) ||
			dst.Tracker != src.Tracker || dst.Info.Title != src.Info.Title {
			t.Fatalf("session %s listed as %+v, not %+v", id, dst.Info, src.Info)
		}
	}

	again, err := migrate.Run(from.Mgr, to.Mgr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Records != 0 || again.Existing != result.Records || again.SessionCount != 3 {
		t.Fatalf("second run copied again: %+v after %+v", again, result)
	}
	for _, id := range ids {
		if got, want := export(t, to, id), export(t, from, id); !bytes.Equal(got, want) {
			t.Fatalf("session %s changed on the second run", id)
		}
	}
}
