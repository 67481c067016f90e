package sqlite

import (
	"bytes"
	"database/sql/driver"
	"unsafe"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/rawdb"
)

// stmtDecoder reads the columns of a direct connection's row as rowDecoder reads the
// driver's: TEXT and BLOB are text, only INTEGER is an integer, and a column of another
// type is noted by name in bad.
type stmtDecoder struct {
	row *rawdb.Stmt
	bad []string
	// inPlace makes Text return strings over SQLite's memory, valid only until the next
	// row: for a listing encoded row by row, where copying every id and title was a
	// tenth of the listing's Go time.
	inPlace bool
}

func (d *stmtDecoder) Text(i int, name string) string {
	if t := d.row.Type(i); t == rawdb.Text || t == rawdb.Blob {
		b := d.row.Bytes(i)
		if d.inPlace {
			return unsafe.String(unsafe.SliceData(b), len(b))
		}
		return string(b)
	}
	d.bad = append(d.bad, name)
	return ""
}

func (d *stmtDecoder) OptionalText(i int, name string) string {
	if d.row.Type(i) == rawdb.Null {
		return ""
	}
	return d.Text(i, name)
}

func (d *stmtDecoder) Integer(i int, name string) int64 {
	if d.row.Type(i) == rawdb.Integer {
		return d.row.Int64(i)
	}
	d.bad = append(d.bad, name)
	return 0
}

func (d *stmtDecoder) OptionalInteger(i int, name string) *int64 {
	if d.row.Type(i) == rawdb.Null {
		return nil
	}
	v := d.Integer(i, name)
	return &v
}

// directValues gives a direct connection the driver's rows (rowQuerier), for the reads
// that are not hot but run inside one that is, on its connection and snapshot: each
// column becomes a driver.Value of its own, as the driver makes it (INTEGER int64, FLOAT
// float64, TEXT string, BLOB a copied []byte, NULL nil).
type directValues struct{ c *rawdb.Conn }

// rowQuerier runs a statement and calls fn with each row's values, as sqlconn.Conn.Query
// does; a direct read connection (directValues) is one too, so that a read shared by both
// kinds of connection (scanFrom, lookupSID) is written once.
type rowQuerier interface {
	Query(query string, args []any, fn func(row []driver.Value) error) error
}

// Query is rowQuerier's: the rows of query, each value its own.
func (d directValues) Query(query string, args []any, fn func(row []driver.Value) error) error {
	var values []driver.Value
	return queryDirect(d.c, query, args, func(row *rawdb.Stmt) error {
		if values == nil {
			values = make([]driver.Value, row.ColumnCount())
		}
		for i := range values {
			switch row.Type(i) {
			case rawdb.Integer:
				values[i] = row.Int64(i)
			case rawdb.Float:
				values[i] = row.Float64(i)
			case rawdb.Text:
				values[i] = string(row.Bytes(i))
			case rawdb.Blob:
				values[i] = []byte(nil) // the driver's value for an empty BLOB, which reads treat as none
				if b := row.Bytes(i); len(b) > 0 {
					values[i] = bytes.Clone(b)
				}
			default:
				values[i] = nil
			}
		}
		return fn(values)
	})
}

// columnBytes is asBytes of a direct connection's column: its bytes in SQLite's memory, nil
// for NULL and, as the driver gives them, for an empty BLOB.
func columnBytes(row *rawdb.Stmt, i int) []byte {
	switch row.Type(i) {
	case rawdb.Text:
		return row.Bytes(i)
	case rawdb.Blob:
		if b := row.Bytes(i); len(b) > 0 {
			return b
		}
	}
	return nil
}
