package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sessionkeep/sessionkeep/session"
)

// migration is one numbered schema change, recorded in the schema_version table of the
// store's schema. A store that records a version this build does not know was written by a
// newer sessionkeep and is refused.
type migration struct {
	version     int64
	description string
	statements  []string
}

// migrations are applied in order, all in the one transaction that records them. Never
// edit one that has shipped: add the next.
var migrations = []migration{
	{1, "sessions, messages, blocks, search, context cache, hosted-agent state, branches, file snapshots", schemaV1},
	{2, "search finds the words of paths and URLs", schemaV2},
	{3, "search vectors filled off the writer's commits", schemaV3},
	{4, "a message that has ended is its body; block rows only journal what streams", schemaV4},
	{5, "the search index leaves out the messages not yet indexed (built after the migration)", schemaV5},
	{6, "the writer marks a session branched, not a trigger per message", schemaV6},
	{7, "search vectors compressed with lz4", schemaV7},
}

// migrate creates the store's schema when it is missing and brings its tables up to the
// newest migration. Everything runs in one transaction holding an advisory lock named after
// the schema, so hosts that open a fresh store at once wait for the first, then find the
// work done; a host that dies midway leaves nothing half made.
func migrate(ctx context.Context, pool *pgxpool.Pool, schema string) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return storageError("starting the migration", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('sessionkeep migrate ' || $1, 0))`, schema); err != nil {
		return storageError("waiting for other hosts migrating the store", err)
	}
	// Created only when missing: a role that may use a schema an operator made for it need not
	// be allowed to create schemas, which CREATE SCHEMA IF NOT EXISTS checks even when it exists.
	var made bool
	if err := tx.QueryRow(ctx, `SELECT to_regclass(quote_ident($1) || '.schema_version') IS NOT NULL`, schema).Scan(&made); err != nil {
		return storageError("reading the store's schema "+schema, err)
	}
	if !made {
		for _, stmt := range []string{
			`CREATE SCHEMA IF NOT EXISTS ` + pgx.Identifier{schema}.Sanitize(),
			`CREATE TABLE IF NOT EXISTS schema_version (
				version     BIGINT PRIMARY KEY,
				description TEXT NOT NULL,
				applied_at  BIGINT NOT NULL)`,
		} {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return storageError("creating the store's schema "+schema, err)
			}
		}
	}
	if err := applyMigrations(ctx, conn{tx, ctx}); err != nil {
		return err
	}
	return storageError("committing the migration", tx.Commit(ctx))
}

func applyMigrations(ctx context.Context, c conn) error {
	applied := map[int64]bool{}
	err := c.query(`SELECT version FROM schema_version`, nil, func(row []any) error {
		applied[row[0].(int64)] = true
		return nil
	})
	if err != nil {
		return storageError("reading the applied migrations", err)
	}
	known := map[int64]bool{}
	for _, m := range migrations {
		known[m.version] = true
	}
	for version := range applied {
		if !known[version] {
			return fmt.Errorf("%w: the store's schema has migration %d, which this sessionkeep does not know: upgrade sessionkeep", session.ErrStorage, version)
		}
	}
	for _, m := range migrations {
		if applied[m.version] {
			continue
		}
		for _, stmt := range m.statements {
			if _, err := c.exec(stmt); err != nil {
				return storageError(fmt.Sprintf("migration %d (%s)", m.version, m.description), err)
			}
		}
		if _, err := c.exec(`INSERT INTO schema_version(version, description, applied_at) VALUES ($1, $2, $3)`,
			m.version, m.description, time.Now().UnixMilli()); err != nil {
			return storageError("recording a migration", err)
		}
	}
	return nil
}
