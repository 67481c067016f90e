package sqlite_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/sessionkeep/sessionkeep/persistence/interop"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
)

// BenchmarkPayloadCompression measures what compressing stored payloads one row at a time
// would give on the real transcripts: for message bodies, the source fields kept beside
// them (extra) and blobs, the size packed over the size stored ("size/raw") and the speed of
// unpacking, which a restore (W2) and a tail (W3) would pay on every row they read. It is a
// measurement for bench/README.md, not a check:
//
//	go test -run '^$' -bench PayloadCompression ./persistence/sqlite/
func BenchmarkPayloadCompression(b *testing.B) {
	db := importedReal(b)
	fastest, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
	reader, _ := zstd.NewReader(nil)
	codecs := []payloadCodec{
		{"none", func(p []byte) []byte { return p }, func(p []byte) ([]byte, error) { return p, nil }},
		{"s2", func(p []byte) []byte { return s2.Encode(nil, p) }, func(p []byte) ([]byte, error) { return s2.Decode(nil, p) }},
		{"zstd-fastest", func(p []byte) []byte { return fastest.EncodeAll(p, nil) }, func(p []byte) ([]byte, error) { return reader.DecodeAll(p, nil) }},
	}
	for _, set := range []struct{ name, query string }{
		{"bodies", `SELECT body FROM messages WHERE body IS NOT NULL`},
		{"bodies-over-4KB", `SELECT body FROM messages WHERE length(body) > 4096`},
		{"extra", `SELECT extra FROM messages`},
		{"blobs", `SELECT data FROM blobs`},
	} {
		b.Run(set.name, func(b *testing.B) { benchUnpack(b, codecs, column(b, db, set.query)) })
	}
}

// importedReal imports the real transcripts into a new store and returns its file.
func importedReal(b *testing.B) string {
	real := filepath.Join("..", "..", "..", "shared", "fixtures", "real")
	if _, err := os.Stat(real); err != nil {
		b.Skipf("the real fixtures are not beside the repository: %v", err)
	}
	path := filepath.Join(b.TempDir(), "store.db")
	st, err := sqlite.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	mgr := session.NewManager(st)
	if _, err := interop.Import(mgr, real, interop.ImportOptions{}); err != nil {
		b.Fatal(err)
	}
	if err := mgr.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// column reads the one column query selects, row by row.
func column(b *testing.B, path, query string) [][]byte {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(query)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var v []byte
		if err := rows.Scan(&v); err != nil {
			b.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// BenchmarkBodyDictionary measures a zstd dictionary for the bodies that are stored plain
// (1 KB and under, which s2 left alone in round 5; at round 5's first measurement, 4 KB and
// under: most of the rows of an import, whose bytes were 0.9 times the transcripts'). The dictionary is built from the even rows and measured
// on the odd ones, as a store would build it from the bodies it holds and use it for those
// to come. size/raw is what the odd rows would take, unpack speed is what each read would
// pay, per body, beside s2 and zstd without a dictionary. A measurement for
// bench/README.md (issue 16 round 5), not a check:
//
//	go test -run '^$' -bench BodyDictionary ./persistence/sqlite/
func BenchmarkBodyDictionary(b *testing.B) {
	// A packed body starts with a zero byte (bodycodec.PackedMarker); a plain one with '{'.
	rows := column(b, importedReal(b), `SELECT body FROM messages WHERE body IS NOT NULL AND substr(body, 1, 1) = x'7b'`)
	var train, test [][]byte
	for i, r := range rows {
		if i%2 == 0 {
			train = append(train, r)
		} else {
			test = append(test, r)
		}
	}
	fastest, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
	plainReader, _ := zstd.NewReader(nil)
	codecs := []payloadCodec{
		{"none", func(p []byte) []byte { return p }, func(p []byte) ([]byte, error) { return p, nil }},
		{"s2", func(p []byte) []byte { return s2.Encode(nil, p) }, func(p []byte) ([]byte, error) { return s2.Decode(nil, p) }},
		{"zstd-fastest", func(p []byte) []byte { return fastest.EncodeAll(p, nil) }, func(p []byte) ([]byte, error) { return plainReader.DecodeAll(p, nil) }},
	}
	for _, historyKB := range []int{32, 112} {
		var history []byte
		for _, r := range train {
			if len(history)+len(r) > historyKB<<10 {
				break
			}
			history = append(history, r...)
		}
		dict, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 1, Contents: train, History: history, Level: zstd.SpeedFastest})
		if err != nil {
			b.Fatal(err)
		}
		for _, level := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault} {
			enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithEncoderDict(dict))
			if err != nil {
				b.Fatal(err)
			}
			dec, err := zstd.NewReader(nil, zstd.WithDecoderDicts(dict))
			if err != nil {
				b.Fatal(err)
			}
			codecs = append(codecs, payloadCodec{
				fmt.Sprintf("zstd-dict-%dKB-%s", historyKB, level),
				func(p []byte) []byte { return enc.EncodeAll(p, nil) },
				func(p []byte) ([]byte, error) { return dec.DecodeAll(p, nil) },
			})
		}
	}
	benchUnpack(b, codecs, test)
}

// payloadCodec is one way of packing a stored payload, measured by benchUnpack.
type payloadCodec struct {
	name   string
	pack   func([]byte) []byte
	unpack func([]byte) ([]byte, error)
}

// benchUnpack runs a sub-benchmark per codec: rows are packed once, then unpacked in the
// loop. It reports the packed size over the plain size ("size/raw"), the plain megabytes and
// the time to unpack one row, which every read of that row would pay.
func benchUnpack(b *testing.B, codecs []payloadCodec, rows [][]byte) {
	for _, c := range codecs {
		b.Run(c.name, func(b *testing.B) {
			var raw, packed int
			stored := make([][]byte, len(rows))
			for i, r := range rows {
				stored[i] = c.pack(r)
				raw, packed = raw+len(r), packed+len(stored[i])
			}
			b.SetBytes(int64(raw))
			for b.Loop() {
				for _, p := range stored {
					if _, err := c.unpack(p); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(packed)/float64(raw), "size/raw")
			b.ReportMetric(float64(raw)/1e6, "MB-plain")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(stored)), "ns/row")
		})
	}
}
