package jsonenc

import (
	"testing"
	"time"
)

// TestAppendTimeMatchesFormatTime over dates of several centuries, leap days, times before
// 1970 and the zero time; and over every day of four years.
func TestAppendTimeMatchesFormatTime(t *testing.T) {
	for _, tm := range []time.Time{{}, time.UnixMilli(0), time.UnixMilli(1700000000999), time.Date(2099, 12, 31, 23, 59, 59, 7e6, time.UTC),
		time.Date(1969, 7, 20, 20, 17, 40, 0, time.FixedZone("x", 3600)), time.Date(2000, 2, 29, 12, 0, 0, 0, time.UTC),
		time.Date(1900, 3, 1, 0, 0, 0, 1e6, time.UTC), time.UnixMilli(-1)} {
		if got := string(AppendTime(nil, tm)); got != FormatTime(tm) {
			t.Errorf("%v: %s, FormatTime %s", tm, got, FormatTime(tm))
		}
	}
	for d := time.Date(1999, 1, 1, 23, 59, 59, 999e6, time.UTC); d.Year() < 2003; d = d.AddDate(0, 0, 1) {
		if got := string(AppendTime(nil, d)); got != FormatTime(d) {
			t.Fatalf("%s, FormatTime %s", got, FormatTime(d))
		}
	}
}

// BenchmarkAppendTime is one listing field's time: W4 writes 1,000 of them a listing.
func BenchmarkAppendTime(b *testing.B) {
	t := time.UnixMilli(1764151438271)
	buf := make([]byte, 0, 32)
	for b.Loop() {
		buf = AppendTime(buf[:0], t)
	}
}
