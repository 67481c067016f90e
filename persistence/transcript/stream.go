package transcript

import (
	"time"

	"github.com/sessionkeep/sessionkeep/session/importing"
)

// A file of gigabytes is not read into memory whole: a reader that streams reads it twice,
// a first time for what the session's description needs from the whole file (its id, its
// title, its last model, its first and last times), keeping nothing of the records, then
// a second time converting its lines into records it hands on in batches.

// Sink takes a file as a streaming reader reads it: Begin once, with the session the
// records go to, then Add for each batch of records in the file's order.
type Sink interface {
	Begin(target importing.ImportTarget) error
	Add(recs []importing.Record) error
}

// BatchBytes is about how many bytes of a file's lines a streaming reader converts before
// it hands their records on (a variable for tests, which hand on smaller batches).
var BatchBytes = 4 << 20

// TimeSpan follows the times of a file's records on the first reading: its first and last
// times, as FillTimes gives them.
type TimeSpan struct {
	first, last time.Time
}

// Note notes the time of the next record (the zero time when it has none).
func (s *TimeSpan) Note(t time.Time) {
	if t.IsZero() {
		return
	}
	if s.first.IsZero() {
		s.first = t
	}
	s.last = t
}

// Span returns the first and last times, fallback when no record has one.
func (s *TimeSpan) Span(fallback time.Time) (first, last time.Time) {
	if s.first.IsZero() {
		return fallback, fallback
	}
	return s.first, s.last
}

// TimeFill gives records with no time of their own the time of the record before them, as
// FillTimes does, batch after batch: Prev starts as the first time of the file.
type TimeFill struct {
	Prev time.Time
}

// Fill fills the times of the next batch of records.
func (f *TimeFill) Fill(recs []importing.Record) {
	for i := range recs {
		if recs[i].CreatedAt.IsZero() {
			recs[i].CreatedAt = f.Prev
		}
		f.Prev = recs[i].CreatedAt
	}
}
