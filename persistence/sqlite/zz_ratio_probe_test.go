package sqlite_test

import (
	"os"
	"testing"

	"github.com/klauspost/compress/s2"
)

func TestZZRatioProbe(t *testing.T) {
	var rows [][]byte
	if p := os.Getenv("PROBE_DB"); p != "" {
		rows = column(&testing.B{}, p, `SELECT body FROM messages WHERE body IS NOT NULL`)
	} else {
		b := &testing.B{}
		rows = column(b, importedReal(b), `SELECT body FROM messages WHERE body IS NOT NULL`)
	}
	type acc struct{ raw, s2now, rule, rule2 int }
	var a acc
	for _, v := range rows {
		if len(v) > 0 && v[0] == 0 {
			v, _ = s2.Decode(nil, v[1:])
		}
		p := 1 + len(s2.Encode(nil, v))
		a.raw += len(v)
		pick := func(ok bool) int {
			if ok && p < len(v) {
				return p
			}
			return len(v)
		}
		a.s2now += pick(len(v) > 1024)
		a.rule += pick(len(v) > 32<<10 || (len(v) > 1024 && p*2 <= len(v)))
		a.rule2 += pick(len(v) > 32<<10 || (len(v) > 1024 && p*5 <= len(v)*3))
	}
	t.Logf("%d bodies raw %d; now %.3f; 32K-or-half %.3f; 32K-or-0.6 %.3f", len(rows), a.raw, float64(a.s2now)/float64(a.raw), float64(a.rule)/float64(a.raw), float64(a.rule2)/float64(a.raw))
}
