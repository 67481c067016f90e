package importing

import "encoding/hex"

// uuidSet is the set of record uuids a session holds while an import runs. A file of
// gigabytes holds a million records or more, so a uuid in its canonical form (36
// characters, lower-case hex) is kept as its 16 bytes, a third of what the string and
// its header take; any other id is kept as it is.
type uuidSet struct {
	canonical map[[16]byte]struct{}
	other     map[string]struct{}
}

func newUUIDSet(held map[string]struct{}) *uuidSet {
	s := &uuidSet{canonical: make(map[[16]byte]struct{}, len(held)), other: map[string]struct{}{}}
	for id := range held {
		s.add(id)
	}
	return s
}

func (s *uuidSet) has(id string) bool {
	if key, ok := uuidBytes(id); ok {
		_, found := s.canonical[key]
		return found
	}
	_, found := s.other[id]
	return found
}

func (s *uuidSet) add(id string) {
	if key, ok := uuidBytes(id); ok {
		s.canonical[key] = struct{}{}
		return
	}
	s.other[id] = struct{}{}
}

// uuidBytes returns the 16 bytes of a uuid written as 8-4-4-4-12 lower-case hex digits,
// and whether id is one: written so, it has no other spelling, so the bytes stand for it.
func uuidBytes(id string) (key [16]byte, ok bool) {
	if len(id) != 36 || id[8] != '-' || id[13] != '-' || id[18] != '-' || id[23] != '-' {
		return key, false
	}
	var digits [32]byte
	n := 0
	for i := 0; i < 36; i++ {
		c := id[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			continue
		}
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return key, false
		}
		digits[n] = c
		n++
	}
	if _, err := hex.Decode(key[:], digits[:]); err != nil {
		return key, false
	}
	return key, true
}
