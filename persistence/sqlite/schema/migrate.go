package schema

import (
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// Migrate brings the database's schema up to the newest migration: an empty database (a
// new file) in one step from freshSchema, any other by the migrations it lacks. It then
// settles the messages an older sessionkeep ended after the migration (settleLateBodies)
// and gives back the space the migrations it applied left free (reclaimAfterMigration).
//
// It runs on the store's connection c, which it leaves outside any transaction; a lock it
// meets is an ErrBusy, for the caller to retry (each step is safe to repeat).
//
//go:generate go test -run ^TestFreshSchemaIsTheMigrations$ -update-fresh-schema .
func Migrate(c *sqlconn.Conn) error {
	since := time.Now().UnixMilli()
	if err := migrateWith(c, freshSchema); err != nil {
		return err
	}
	settleLateBodies(c)
	reclaimAfterMigration(c, since)
	return nil
}

// migrateWith is migrate with the fresh schema given, so that a test can build a store by
// the migrations alone (with an empty freshDump) to compare.
func migrateWith(c *sqlconn.Conn, fresh freshDump) error {
	if _, err := c.Exec("BEGIN IMMEDIATE"); err != nil {
		return sqlconn.Wrap("starting the migration", err)
	}
	if err := migrateInTransaction(c, fresh); err != nil {
		c.Exec("ROLLBACK")
		return err
	}
	if _, err := c.Exec("COMMIT"); err != nil {
		c.Exec("ROLLBACK") // so that a retry can begin again
		return sqlconn.Wrap("committing the migration", err)
	}
	return nil
}

// migrateInTransaction decides, under the write lock (two processes may create the file at
// once), whether the database is new.
func migrateInTransaction(c *sqlconn.Conn, fresh freshDump) error {
	empty, err := isEmptyDatabase(c)
	if err != nil {
		return err
	}
	if empty && fresh.fits(migrations) {
		return createFresh(c, fresh, migrations)
	}
	if _, err := c.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
		version     INTEGER PRIMARY KEY,
		description TEXT NOT NULL,
		applied_at  INTEGER NOT NULL)`); err != nil {
		return sqlconn.Wrap("creating the migrations table", err)
	}
	return applyMigrations(c)
}

func applyMigrations(c *sqlconn.Conn) error {
	applied, err := appliedVersions(c)
	if err != nil {
		return err
	}
	known := make(map[int64]bool, len(migrations))
	for _, m := range migrations {
		known[m.version] = true
	}
	for version := range applied {
		if !known[version] {
			return fmt.Errorf("%w: database schema has migration %d, which this sessionkeep does not know: upgrade sessionkeep", session.ErrStorage, version)
		}
	}
	for _, m := range migrations {
		if applied[m.version] {
			continue
		}
		for _, stmt := range m.statements {
			if _, err := c.Exec(stmt); err != nil {
				return sqlconn.Wrap(fmt.Sprintf("migration %d (%s)", m.version, m.description), err)
			}
		}
		if m.then != nil {
			if err := m.then(c); err != nil {
				return sqlconn.Wrap(fmt.Sprintf("migration %d (%s)", m.version, m.description), err)
			}
		}
		if err := recordMigration(c, m, time.Now().UnixMilli()); err != nil {
			return err
		}
	}
	return nil
}

// recordMigration records m in schema_migrations as applied at appliedAt (Unix ms).
func recordMigration(c *sqlconn.Conn, m migration, appliedAt int64) error {
	_, err := c.Exec(`INSERT INTO schema_migrations(version, description, applied_at) VALUES (?, ?, ?)`,
		m.version, m.description, appliedAt)
	return sqlconn.Wrap("recording a migration", err)
}

// appliedVersions returns the migrations the database records. Each migration is applied
// by its own number, not by "everything above the newest", so that migrations developed
// side by side apply whatever order they were merged in.
func appliedVersions(c *sqlconn.Conn) (map[int64]bool, error) {
	applied := map[int64]bool{}
	err := c.Query(`SELECT version FROM schema_migrations`, nil, func(row []driver.Value) error {
		applied[row[0].(int64)] = true
		return nil
	})
	return applied, sqlconn.Wrap("reading the applied migrations", err)
}
