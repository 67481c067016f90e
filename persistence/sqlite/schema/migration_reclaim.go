package schema

import (
	"database/sql/driver"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// reclaimFreeFraction is the share of the file's pages a migration must have left free
// for reclaimAfterMigration to rewrite the file: one that rewrites every message (the
// packed bodies of migration 11, say) leaves the old pages free inside the file, which
// SQLite reuses but never gives back, so the store stayed that much larger than it needs.
const reclaimFreeFraction = 0.2

// reclaimMinFreePages is the fewest free pages worth rewriting the file for (16 MB).
const reclaimMinFreePages = 4096

// reclaimAfterMigration gives back to the file system the pages that the migrations this
// open applied (recorded at or after since, Unix ms) left free, by a VACUUM when they are
// many, then truncates the WAL the VACUUM filled. VACUUM is one write transaction: other
// processes read on meanwhile (their snapshots are in the WAL) and their writes wait as for
// any commit; a crash during it leaves the store as it was before it. It keeps every
// table's rowids (each has an INTEGER PRIMARY KEY), which the full-text indexes refer to.
// A failure (another process's lock outlasting the busy timeout) leaves the space to a
// later migration and is not an error: nothing is lost by not reclaiming.
func reclaimAfterMigration(c *sqlconn.Conn, since int64) {
	migrated := int64(0)
	if err := c.Query(`SELECT count(*) FROM schema_migrations WHERE applied_at >= ?`, []any{since}, func(row []driver.Value) error {
		migrated, _ = row[0].(int64)
		return nil
	}); err != nil || migrated == 0 {
		return
	}
	free, pages := pragmaInt(c, "freelist_count"), pragmaInt(c, "page_count")
	if free < reclaimMinFreePages || float64(free) < reclaimFreeFraction*float64(pages) {
		return
	}
	// VACUUM copies the database into a temporary one first: in a file, not in memory as the
	// store's connections keep their temporary tables, or a large store would need its size
	// in RAM.
	if _, err := c.Exec("PRAGMA temp_store = FILE"); err != nil {
		return
	}
	defer c.Exec("PRAGMA temp_store = MEMORY")
	if _, err := c.Exec("VACUUM"); err != nil {
		return
	}
	c.Query("PRAGMA wal_checkpoint(TRUNCATE)", nil, nil)
}

// pragmaInt reads the integer PRAGMA name of c's database; -1 when it cannot.
func pragmaInt(c *sqlconn.Conn, name string) int64 {
	v := int64(-1)
	c.Query("PRAGMA "+name, nil, func(row []driver.Value) error {
		v, _ = row[0].(int64)
		return nil
	})
	return v
}
