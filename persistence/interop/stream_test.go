package interop_test

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/interop"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
)

// TestStreamedImportStoresWhatAWholeOneDoes streams every real transcript it can (in 16 KB
// batches) and checks that the store then holds what reading them whole stores.
func TestStreamedImportStoresWhatAWholeOneDoes(t *testing.T) {
	whole := importReal(t, 1)
	defer func(above int64, batch int) { interop.StreamAbove, transcript.BatchBytes = above, batch }(interop.StreamAbove, transcript.BatchBytes)
	interop.StreamAbove, transcript.BatchBytes = 0, 16<<10
	streamed := importReal(t, 1)
	if whole.result.Records < 1000 {
		t.Fatalf("the import read too little to compare: %d records", whole.result.Records)
	}
	sameImport(t, "whole", whole, "streamed", streamed)
}
