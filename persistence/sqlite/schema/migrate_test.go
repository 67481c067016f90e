package schema

import (
	"path/filepath"
	"testing"
)

// TestMigrationsAreRecordedOnce gives a new file the schema, then migrates it again from a
// second connection, as the next open of the store does: every migration is recorded once,
// the tables are there, and nothing is applied (or recorded) again.
func TestMigrationsAreRecordedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	if err := Migrate(openConn(t, path)); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	newest := migrations[len(migrations)-1].version
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != int64(len(migrations)) {
		t.Fatalf("%d migrations recorded, want %d", n, len(migrations))
	}
	if v := queryInt(t, db, `SELECT MAX(version) FROM schema_migrations`); v != newest {
		t.Fatalf("schema version %d, want %d", v, newest)
	}
	for _, table := range []string{"sessions", "messages", "blocks", "blobs", "tool_uses"} {
		if n := queryInt(t, db, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, table); n != 1 {
			t.Errorf("table %s missing", table)
		}
	}
	applied := queryInt(t, db, `SELECT applied_at FROM schema_migrations WHERE version = 1`)

	if err := Migrate(openConn(t, path)); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != int64(len(migrations)) {
		t.Fatalf("%d migrations recorded after a second migrate, want %d", n, len(migrations))
	}
	if again := queryInt(t, db, `SELECT applied_at FROM schema_migrations WHERE version = 1`); again != applied {
		t.Fatalf("migration 1 re-applied: applied_at %d -> %d", applied, again)
	}
}

// TestStatementsOfAVersion: Statements gives a known migration's statements, which a test of
// an upgrade plants, and nothing for a version this build does not know.
func TestStatementsOfAVersion(t *testing.T) {
	if got := Statements(1); len(got) == 0 || len(got) != len(migrations[0].statements) || got[0] != migrations[0].statements[0] {
		t.Fatalf("Statements(1) = %d statements, want migration 1's %d", len(got), len(migrations[0].statements))
	}
	if got := Statements(migrations[len(migrations)-1].version + 1); got != nil {
		t.Fatalf("Statements of an unknown version = %q, want nil", got)
	}
}
