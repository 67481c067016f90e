package claudecode

import (
	"fmt"
	"testing"
)

func TestRecentChainsKeepTwoGenerations(t *testing.T) {
	rc := &recentChains{now: map[string]string{}}
	for i := range 2*recentChainsKept + 1 {
		rc.put(fmt.Sprint(i), fmt.Sprint("chain ", i%7))
	}
	if _, ok := rc.get("0"); ok {
		t.Error("the oldest generation is still kept: the map grows with the file")
	}
	for _, i := range []int{recentChainsKept, 2*recentChainsKept - 1, 2 * recentChainsKept} {
		if chain, ok := rc.get(fmt.Sprint(i)); !ok || chain != fmt.Sprint("chain ", i%7) {
			t.Errorf("uuid %d: %q, %v; want its chain", i, chain, ok)
		}
	}
	if len(rc.now)+len(rc.before) > 2*recentChainsKept {
		t.Errorf("%d uuids kept, more than two generations", len(rc.now)+len(rc.before))
	}
}
