package interop_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/interop"
)

// goldenExports holds the sha256 of each export of each session imported from the real
// transcripts. Written by SK_UPDATE_GOLDEN=1 go test -run ExportsOfTheRealTranscripts, from
// main at 66b2d78 (issue 16 round 5): a change to how an import parses or stores records
// that changes what comes back out shows here.
const goldenExports = "testdata/real_exports.sha256"

// TestExportsOfTheRealTranscriptsAreUnchanged imports the real transcripts and compares
// their exports, in sessionkeep's JSONL and in Claude Code's format, with the golden hashes:
// every record kind of both formats comes back byte for byte as it did.
func TestExportsOfTheRealTranscriptsAreUnchanged(t *testing.T) {
	mgr, _, res := importRealStore(t, 0)
	var lines []string
	for _, id := range res.Sessions {
		for _, format := range []string{"jsonl", "claude-code"} {
			text, err := interop.Export(mgr, id, interop.ExportOptions{Format: format})
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(text)
			lines = append(lines, fmt.Sprintf("%s %s %s", hex.EncodeToString(sum[:]), id, format))
		}
	}
	sort.Strings(lines)
	got := strings.Join(lines, "\n") + "\n"
	if os.Getenv("SK_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(goldenExports, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenExports)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("exports of the real transcripts changed:\ngot\n%s\nwant\n%s", got, want)
	}
	if len(lines) != 2*13 {
		t.Errorf("%d exports, want 2 for each of the 13 sessions", len(lines))
	}
}
