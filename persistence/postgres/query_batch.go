package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// batchQuery is one statement of queryBatch, and what is called with each of its rows.
type batchQuery struct {
	sql  string
	args []any
	fn   func(row []any) error
}

// queryBatch runs statements in one round trip (a pgx batch, one implicit transaction) and
// calls each one's fn with its rows, in order, as query does. An fn that fails ends it.
func (c conn) queryBatch(queries ...batchQuery) (err error) {
	b := &pgx.Batch{}
	for _, q := range queries {
		b.Queue(q.sql, storableArgs(q.args)...)
	}
	results := c.q.(interface {
		SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	}).SendBatch(c.ctx, b)
	defer func() {
		if closeErr := results.Close(); err == nil {
			err = closeErr
		}
	}()
	for _, q := range queries {
		if err := readRows(results, q.fn); err != nil {
			return err
		}
	}
	return nil
}

// readRows calls fn with each row of the batch's next result.
func readRows(results pgx.BatchResults, fn func(row []any) error) error {
	rows, err := results.Query()
	if err != nil {
		return err
	}
	return eachRow(rows, fn)
}
