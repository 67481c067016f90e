package schema

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// BenchmarkOpenNewStore opens a connection to a new file, gives it the schema and closes
// it: the schema created in one step (freshSchema) against the migrations applied one by
// one, which every W1 of the speed benchmark paid (bench/README.md, "Issue 16, round 5").
func BenchmarkOpenNewStore(b *testing.B) {
	for _, way := range []struct {
		name  string
		fresh freshDump
	}{{"fresh-schema", freshSchema}, {"migrations", freshDump{}}} {
		b.Run(way.name, func(b *testing.B) {
			dir := b.TempDir()
			for i := range b.N {
				path := filepath.Join(dir, fmt.Sprint(i, ".db"))
				c, err := sqlconn.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				if err := migrateWith(c, way.fresh); err != nil {
					b.Fatal(err)
				}
				c.Close()
			}
		})
	}
}
