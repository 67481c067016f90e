package importing

import "testing"

func TestUUIDSetTellsCanonicalUUIDsFromOtherSpellings(t *testing.T) {
	s := newUUIDSet(map[string]struct{}{"0192a3b4-c5d6-7e8f-9012-3456789abcde": {}})
	s.add("not-a-uuid")
	s.add("0192A3B4-C5D6-7E8F-9012-3456789ABCDE") // upper case: another id, kept as written
	for id, want := range map[string]bool{
		"0192a3b4-c5d6-7e8f-9012-3456789abcde": true,
		"0192A3B4-C5D6-7E8F-9012-3456789ABCDE": true,
		"0192a3b4-c5d6-7e8f-9012-3456789abcdf": false,
		"0192A3B4-C5D6-7E8F-9012-3456789ABCDF": false,
		"not-a-uuid":                           true,
		"not-a-uuie":                           false,
		"0192a3b4c5d67e8f90123456789abcde":     false,
	} {
		if got := s.has(id); got != want {
			t.Errorf("has(%q) = %v, want %v", id, got, want)
		}
	}
	if len(s.canonical) != 1 || len(s.other) != 2 {
		t.Errorf("canonical %d, other %d: want 1 and 2", len(s.canonical), len(s.other))
	}
}
