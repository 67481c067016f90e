package schema

import (
	"context"
	"crypto/sha256"
	"database/sql/driver"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// freshDump is the schema the migrations build on an empty database, as the statements that
// build it in one step: what a new store is given instead of running every migration one
// by one (with 14 of them, 11.5 of the 14 ms an Open of a new file took, most of it SQLite
// re-reading the schema after each ALTER TABLE). It is generated from the migrations themselves
// (fresh_gen.go, `go generate ./persistence/sqlite/schema`) and applies only while they are
// the migrations it was generated from.
type freshDump struct {
	migrations string   // fingerprint of the migrations it was generated from
	statements []string // in the order SQLite created the objects, seed rows last
}

// fits reports whether the dump was generated from exactly these migrations; when it was
// not (a migration added and the dump not generated again), new stores are built by the
// migrations, which is slower but never wrong, and TestFreshSchemaIsTheMigrations fails.
func (d freshDump) fits(ms []migration) bool {
	return len(d.statements) > 0 && d.migrations == migrationsFingerprint(ms)
}

// migrationsFingerprint hashes each migration's version, description and statements. The
// Go step a migration runs after its statements (migration.then) is not in it: on an empty
// database it finds nothing to move, and TestFreshSchemaIsTheMigrations compares every row.
func migrationsFingerprint(ms []migration) string {
	h := sha256.New()
	for _, m := range ms {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(m.version)))
		fmt.Fprintf(h, "%d:%s\x00", len(m.description), m.description)
		for _, s := range m.statements {
			fmt.Fprintf(h, "%d:%s\x00", len(s), s)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// isEmptyDatabase reports whether the database has no schema at all: a file just created.
func isEmptyDatabase(c *sqlconn.Conn) (bool, error) {
	empty := true
	err := c.Query(`SELECT 1 FROM sqlite_master LIMIT 1`, nil, func([]driver.Value) error {
		empty = false
		return nil
	})
	return empty, sqlconn.Wrap("reading the schema", err)
}

// createFresh builds the whole schema of d on an empty database and records ms as applied,
// inside the caller's transaction. The schema's statements are not kept prepared on the
// connection (conn.exec would keep them for the store's life): each runs once.
func createFresh(c *sqlconn.Conn, d freshDump, ms []migration) error {
	execer := c.Raw().(driver.ExecerContext)
	for _, stmt := range d.statements {
		if _, err := execer.ExecContext(context.Background(), stmt, nil); err != nil {
			return sqlconn.Wrap("creating the schema of a new store", err)
		}
	}
	now := time.Now().UnixMilli()
	for _, m := range ms {
		if err := recordMigration(c, m, now); err != nil {
			return err
		}
	}
	return nil
}
