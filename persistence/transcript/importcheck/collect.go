package importcheck

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// Collected is a transcript.Sink that keeps what a streaming reader hands it, and how
// many batches.
type Collected struct {
	Target  importing.ImportTarget
	Records []importing.Record
	Batches int
}

// Begin keeps the session.
func (c *Collected) Begin(target importing.ImportTarget) error {
	c.Target = target
	return nil
}

// Add keeps a batch.
func (c *Collected) Add(recs []importing.Record) error {
	c.Records = append(c.Records, recs...)
	c.Batches++
	return nil
}

// SameAsWhole checks that streaming each of files, in batches of about batchBytes, gives
// the session and the records reading it whole gives. whole reads a file whole; stream
// streams it into a sink and returns the lines it left out.
func SameAsWhole(t *testing.T, files [][]byte, batchBytes int, whole func(io.Reader) (*transcript.File, error), stream func(io.ReadSeeker, transcript.Sink) ([]transcript.Skipped, error)) {
	t.Helper()
	defer func(was int) { transcript.BatchBytes = was }(transcript.BatchBytes)
	transcript.BatchBytes = batchBytes
	if len(files) == 0 {
		t.Skip("the real fixtures are not beside the repository")
	}
	batches := 0
	for i, data := range files {
		want, err := whole(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("file %d read whole: %v", i, err)
		}
		var got Collected
		skipped, err := stream(bytes.NewReader(data), &got)
		if err != nil {
			t.Fatalf("file %d streamed: %v", i, err)
		}
		if got.Target.Info.UpdatedAt.IsZero() && len(got.Records) > 0 { // importing.Stream takes the last record's
			got.Target.Info.UpdatedAt = got.Records[len(got.Records)-1].CreatedAt
		}
		if !reflect.DeepEqual(got.Target, want.Target) {
			t.Errorf("file %d: streamed session %+v, read whole %+v", i, got.Target.Info, want.Target.Info)
		}
		if len(got.Records) != len(want.Records) {
			t.Errorf("file %d: %d records streamed, %d read whole", i, len(got.Records), len(want.Records))
			continue
		}
		for j := range got.Records {
			if !reflect.DeepEqual(got.Records[j], want.Records[j]) {
				t.Errorf("file %d, record %d: streamed\n%+v\nread whole\n%+v", i, j, got.Records[j], want.Records[j])
				break
			}
		}
		if len(skipped) != len(want.Skipped) {
			t.Errorf("file %d: %d lines left out streaming, %d read whole", i, len(skipped), len(want.Skipped))
		}
		batches += got.Batches
	}
	if batches <= len(files) {
		t.Errorf("%d batches for %d files: the files were not handed on in several batches", batches, len(files))
	}
}
