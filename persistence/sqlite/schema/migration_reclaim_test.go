package schema

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReclaimAfterMigrationGivesBackFreePages leaves 26 MB of free pages in a store's file
// (a table filled and dropped, as a migration that rewrites rows leaves them): an open that
// applied no migration leaves them, one that applied some gives them back to the file system.
func TestReclaimAfterMigrationGivesBackFreePages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	c := openConn(t, path)
	if err := Migrate(c); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`CREATE TABLE scratch(x BLOB)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) INSERT INTO scratch SELECT randomblob(65536) FROM n`,
		`DROP TABLE scratch`,
		`PRAGMA wal_checkpoint(TRUNCATE)`,
	} {
		if _, err := c.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	size := func() int64 {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	full, free := size(), pragmaInt(c, "freelist_count")
	if free < reclaimMinFreePages {
		t.Fatalf("only %d free pages: the test proves nothing", free)
	}

	reclaimAfterMigration(c, time.Now().Add(time.Hour).UnixMilli()) // no migration applied since
	if size() != full || pragmaInt(c, "freelist_count") != free {
		t.Fatalf("an open that migrated nothing rewrote the file: %d bytes, %d free pages (were %d, %d)", size(), pragmaInt(c, "freelist_count"), full, free)
	}

	reclaimAfterMigration(c, 0) // every migration applied since
	if left := pragmaInt(c, "freelist_count"); left != 0 || size() > full-20<<20 {
		t.Fatalf("after a migration the file is %d bytes with %d free pages, was %d with %d", size(), left, full, free)
	}
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
		t.Errorf("the VACUUM's WAL was left at %d bytes", wal.Size())
	}
}
