package transcript

import (
	"time"

	"github.com/sessionkeep/sessionkeep/session/importing"
)

// File is one transcript file read into the records of one session.
type File struct {
	Path    string
	Target  importing.ImportTarget // the session the records go to
	Records []importing.Record
	Skipped []Skipped
}

// Skipped is a line of a file that was left out, and why.
type Skipped struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// FillTimes gives records with no time of their own the time of the record before them
// (the first ones, the first time any record has), and returns the first and last times.
func FillTimes(recs []importing.Record, fallback time.Time) (first, last time.Time) {
	for _, r := range recs {
		if !r.CreatedAt.IsZero() {
			fallback = r.CreatedAt
			break
		}
	}
	prev := fallback
	for i := range recs {
		if recs[i].CreatedAt.IsZero() {
			recs[i].CreatedAt = prev
		}
		prev = recs[i].CreatedAt
	}
	if len(recs) == 0 {
		return fallback, fallback
	}
	return recs[0].CreatedAt, recs[len(recs)-1].CreatedAt
}

// ParseTime reads a timestamp as transcripts write them (RFC 3339), in UTC; the zero time
// when it is not one.
func ParseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}
