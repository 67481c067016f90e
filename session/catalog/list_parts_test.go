package catalog

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// listing encodes n sessions as AppendList does, with titles made to look like the places
// SplitList cuts at, and now and then one far larger than the rest.
func listing(r *rand.Rand, n int, want session.InfoFields) []byte {
	tricky := []string{`,{"id":"x"}`, `},{"`, `,{"`, `{"a"`, `\",{\"`, `→ ✓`, `,{`}
	b := []byte{'['}
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		var t strings.Builder
		for range r.IntN(12) {
			t.WriteString(tricky[r.IntN(len(tricky))])
			t.WriteString(strings.Repeat("w", r.IntN(40)))
		}
		if r.IntN(50) == 0 {
			t.WriteString(strings.Repeat("big", 400))
		}
		info := session.SessionInfo{
			ID: "019abc-" + string(rune('a'+i%26)), Title: t.String(), MessageCount: int64(i),
			UpdatedAt: time.Unix(int64(1e9+i), 0), ForkedFrom: &session.ForkOrigin{SessionID: `,{"s`, UUID: "u"},
		}
		b = session.AppendInfo(b, &info, want)
	}
	return append(b, ']')
}

func TestSplitListKeepsEverySessionInOrderUnderMax(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, want := range []session.InfoFields{session.AllInfoFields, session.InfoID | session.InfoTitle | session.InfoMessageCount | session.InfoUpdatedAt} {
		for _, max := range []int{64, 300, 1000, 4096, 1 << 20} {
			b := listing(r, 200, want)
			var whole []map[string]any
			if err := json.Unmarshal(b, &whole); err != nil {
				t.Fatalf("the listing itself does not parse: %v", err)
			}
			parts := SplitList(b, max)
			var got []map[string]any
			for i, p := range parts {
				var items []map[string]any
				if err := json.Unmarshal(p, &items); err != nil {
					t.Fatalf("max %d: part %d does not parse: %v: %.60s", max, i, err, p)
				}
				if len(p) > max && len(items) > 1 {
					t.Errorf("max %d: part %d holds %d sessions in %d bytes", max, i, len(items), len(p))
				}
				got = append(got, items...)
			}
			if !reflect.DeepEqual(got, whole) {
				t.Fatalf("max %d: the parts hold other sessions than the listing (%d of %d)", max, len(got), len(whole))
			}
			if max == 1<<20 && len(parts) != 1 {
				t.Errorf("a listing under max was cut into %d parts", len(parts))
			}
		}
	}
}

func TestSplitListEmpty(t *testing.T) {
	if parts := SplitList([]byte("[]"), 1); len(parts) != 1 || string(parts[0]) != "[]" {
		t.Fatalf("an empty listing gave %q", parts)
	}
}
