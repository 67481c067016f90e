package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// schemaV5 is migration 5: the search index is to hold only the messages the indexer has
// given a vector. A GIN index keeps an entry for a NULL too, so every message the writer
// inserted (its vector NULL until the indexer fills it, search_index.go) went into the
// index's pending list, whose metapage every writer locks: eight writers contended for it
// at each insert (bench/README.md, issue 30 round 5). A search's `search @@ query` implies
// `search IS NOT NULL` (@@ is strict), so the planner uses the partial index as it did the
// whole one (TestSearchReadsThePartialIndex). Building an index inside the migration's
// transaction would hold every host's writes and reads of messages for as long as it takes
// (minutes on a large store), so on a store that holds messages the migration only records
// the work, which narrowSearchIndex does after it, CONCURRENTLY, on the one host that claims
// it. A store without messages (a new one) gets the index at once: a build CONCURRENTLY
// waits for every older transaction of the database, whatever it reads.
var schemaV5 = []string{
	`ALTER TABLE background_migrations ADD COLUMN claimed_until BIGINT`,
	`DO $$ BEGIN
		IF EXISTS (SELECT 1 FROM messages) THEN
			INSERT INTO background_migrations(name) VALUES ('search index of indexed messages');
		ELSE
			DROP INDEX messages_search;
			CREATE INDEX messages_search_indexed ON messages USING GIN (search) WHERE search IS NOT NULL;
		END IF;
	END $$`,
}

// narrowClaim is how long a host's claim on narrowing the search index keeps other hosts
// from it: two builds of one index at once deadlock each other. A host killed while it
// builds leaves the work to the first open after its claim ends.
const narrowClaim = time.Hour

// narrowSearchIndex builds messages_search_indexed, the search index of the messages that
// have a vector, beside messages_search, the index of them all, then drops the latter, both
// CONCURRENTLY: hosts write, read and search meanwhile, through the old index until the new
// one is whole. The first host to open the store after migration 5 claims the work and does
// it before its open returns; the others open at once. A host that finds a build of the
// index running that it did not begin leaves it, and its claim, to a later open. A build
// left invalid (its host killed, its statement cancelled) is dropped and made again.
func narrowSearchIndex(ctx context.Context, pool *pgxpool.Pool) error {
	now := time.Now()
	tag, err := pool.Exec(ctx, `UPDATE background_migrations SET claimed_until = $1
		WHERE name = 'search index of indexed messages' AND done_at IS NULL AND (claimed_until IS NULL OR claimed_until < $2)`,
		now.Add(narrowClaim).UnixMilli(), now.UnixMilli())
	if err != nil || tag.RowsAffected() == 0 {
		return storageError("claiming the search index's narrowing", err) // done, or another host's
	}
	done, err := narrowClaimed(ctx, pool)
	if !done { // the next open tries again
		pool.Exec(ctx, `UPDATE background_migrations SET claimed_until = NULL WHERE name = 'search index of indexed messages'`)
	}
	return err
}

// narrowClaimed is narrowSearchIndex's work once claimed. It reports done false, and no
// error, when it leaves the work to a later open: a build it did not begin is running.
func narrowClaimed(ctx context.Context, pool *pgxpool.Pool) (done bool, err error) {
	valid, building, err := narrowIndexState(ctx, pool)
	if err != nil || building {
		return false, storageError("reading the state of the search index", err)
	}
	if !valid {
		for _, stmt := range []string{
			`DROP INDEX CONCURRENTLY IF EXISTS messages_search_indexed`,
			`CREATE INDEX CONCURRENTLY IF NOT EXISTS messages_search_indexed ON messages USING GIN (search) WHERE search IS NOT NULL`,
		} {
			if _, err := pool.Exec(ctx, stmt); err != nil {
				return false, storageError("building the search index of indexed messages", err)
			}
		}
		// A build begun by a host whose claim had run out is the one IF NOT EXISTS found,
		// still running.
		if valid, _, err = narrowIndexState(ctx, pool); err != nil || !valid {
			return false, storageError("reading the state of the search index", err)
		}
	}
	if _, err := pool.Exec(ctx, `DROP INDEX CONCURRENTLY IF EXISTS messages_search`); err != nil {
		return false, storageError("dropping the search index of every message", err)
	}
	_, err = pool.Exec(ctx, `UPDATE background_migrations SET done_at = $1 WHERE name = 'search index of indexed messages'`, time.Now().UnixMilli())
	return err == nil, storageError("recording the search index narrowed", err)
}

// narrowIndexState reports whether messages_search_indexed exists whole (valid), and
// whether a build of it is running (building).
func narrowIndexState(ctx context.Context, pool *pgxpool.Pool) (valid, building bool, err error) {
	err = pool.QueryRow(ctx, `SELECT i.indisvalid,
			EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = i.indexrelid)
		FROM pg_index i WHERE i.indexrelid = to_regclass('messages_search_indexed')`).Scan(&valid, &building)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, false, nil
	}
	return valid, building, err
}
