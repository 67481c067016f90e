package sqlite

import (
	"database/sql/driver"

	"modernc.org/sqlite"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
)

// A message body's stored form (plain, packed with s2, or packed with a dictionary) is
// persistence/bodycodec's. Here is what SQLite adds: the error a reader of a message gets
// and unpack_body, the codec in SQL.

// unpackBodySQL is unpack_body(x), bodycodec.Unpack in SQL: NULL stays NULL.
func unpackBodySQL(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	stored := rowvalue.Bytes(args[0])
	if stored == nil {
		return args[0], nil
	}
	return bodycodec.Unpack(nil, stored)
}

// storeDriver opens the store's connections; it gives each one unpack_body, for the
// statements that read a body in SQL.
var storeDriver = func() *sqlite.Driver {
	d := &sqlite.Driver{}
	if err := d.RegisterDeterministicScalarFunction("unpack_body", 1, unpackBodySQL); err != nil {
		panic(err) // only a second registration of the same name fails
	}
	return d
}()
