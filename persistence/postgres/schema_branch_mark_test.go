package postgres

import (
	"context"
	"strings"
	"testing"
)

// TestMigrationSixDropsTheBranchTrigger opens a store as migration 5 left it (the
// messages_written trigger and its function in place): migration 6 drops both, and the
// writer then marks a branch by itself.
func TestMigrationSixDropsTheBranchTrigger(t *testing.T) {
	url := freshURL(t)
	openAt(t, url).Close()
	c := connectAt(t, url)
	ctx := context.Background()
	var restored []string
	for _, stmt := range schemaV1 {
		if strings.Contains(stmt, "message_written()") {
			restored = append(restored, stmt)
		}
	}
	if len(restored) != 2 {
		t.Fatalf("found %d statements of migration 1 making the trigger, want its function and itself", len(restored))
	}
	for _, stmt := range append(restored, `DELETE FROM schema_version WHERE version = 6`) {
		if _, err := c.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if n := triggerParts(t, url); n != 2 {
		t.Fatalf("the store made as migration 5 left it has %d of the trigger and its function, want 2", n)
	}

	store := openAt(t, url)
	if n := triggerParts(t, url); n != 0 {
		t.Errorf("after migration 6 the store has %d of the trigger and its function, want none", n)
	}
	w := newBranchWriter(t, store)
	w.create("after")
	first := w.write("after", "", false, true)
	w.write("after", first, false, true)
	w.flush()
	w.write("after", first, false, true)
	w.flush()
	if !w.branched("after") {
		t.Errorf("a branch written after migration 6 left its session unmarked")
	}
}

// triggerParts counts the messages_written trigger and the message_written function in the
// schema of the store at url.
func triggerParts(t *testing.T, url string) int {
	t.Helper()
	var n int
	err := connectAt(t, url).QueryRow(context.Background(), `SELECT
		(SELECT count(*) FROM pg_trigger WHERE tgname = 'messages_written' AND tgrelid = to_regclass('messages'))
		+ (SELECT count(*) FROM pg_proc WHERE proname = 'message_written' AND pronamespace = current_schema()::regnamespace)`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
