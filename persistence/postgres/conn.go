package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// querier is what both a pooled read and the writer's transaction can run statements on.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// conn runs statements on a querier with the shape the store's code reads best: exec
// returns the rows affected, query calls fn with each row's values (BIGINT as int64, TEXT
// as string, BYTEA as []byte, BOOLEAN as bool, NULL as nil), valid only during the call.
type conn struct {
	q   querier
	ctx context.Context
}

// exec runs a statement, its string arguments made storableText, and returns how many rows
// it changed.
func (c conn) exec(sql string, args ...any) (int64, error) {
	tag, err := c.q.Exec(c.ctx, sql, storableArgs(args)...)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

// query runs a statement, its string arguments made storableText, and calls fn with each row.
func (c conn) query(sql string, args []any, fn func(row []any) error) error {
	rows, err := c.q.Query(c.ctx, sql, storableArgs(args)...)
	if err != nil {
		return err
	}
	return eachRow(rows, fn)
}

// eachRow calls fn with each row of rows, and closes them.
func eachRow(rows pgx.Rows, fn func(row []any) error) error {
	defer rows.Close()
	for rows.Next() {
		row, err := rows.Values()
		if err != nil {
			return err
		}
		if err := fn(row); err != nil {
			return err
		}
	}
	return rows.Err()
}
