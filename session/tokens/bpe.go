package tokens

import (
	"container/heap"
	"sync"

	"github.com/dlclark/regexp2/v2"
	// The codec package registers compiled matchers for its split patterns when it is
	// linked; compiling the same pattern here gets o200k_base's, several times faster than
	// regexp2's interpreter. Nothing else of it is used, so its vocabularies, reachable
	// only from its constructors, are not linked.
	_ "github.com/tiktoken-go/tokenizer/codec"
)

// o200kSplit is o200k_base's pre-tokenization pattern: text is cut into pieces by it, and
// each piece is encoded by itself.
const o200kSplit = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

var (
	splitOnce sync.Once
	splitter  *regexp2.Regexp
)

// bpeCount returns the o200k_base tokens of s: s cut into pieces by o200kSplit, each piece
// one token if the vocabulary holds it, else byte-pair merged.
func bpeCount(s string) int64 {
	splitOnce.Do(func() { splitter = regexp2.MustCompile(o200kSplit, regexp2.None) })
	var n int64
	m, _ := splitter.FindStringMatch(s) // errors only on a match timeout, which is not set
	for m != nil {
		n += int64(pieceTokens(m.String()))
		m, _ = splitter.FindNextMatch(m)
	}
	return n
}

// pieceTokens returns the tokens byte-pair encoding makes of piece: starting from its
// bytes (each a token), the adjacent pair whose join has the lowest rank is merged, the
// leftmost when two tie, until no join is a token.
func pieceTokens(piece string) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if _, ok := rankOf(piece); ok {
		return 1
	}
	if len(piece) <= scanMax {
		return scanTokens(piece)
	}
	m := newMerger(piece)
	for m.queue.Len() > 0 {
		c := heap.Pop(&m.queue).(pairAt)
		// Skip a pair merged away, or ranked anew since: a boundary's pair only grows, and
		// ranks are unique, so an equal rank is the same pair.
		if m.next[c.at] < 0 || m.rank[c.at] != c.rank {
			continue
		}
		m.merge(c.at)
	}
	return m.parts
}

// scanMax is the longest piece merged by scanTokens; longer ones, rare, take the merger's
// heap.
const scanMax = 64

// scanTokens is pieceTokens for a piece of at most scanMax bytes: the lowest-ranked pair
// found by a scan of the boundaries, which live on the stack. Most pieces that are not
// tokens themselves are a few bytes long, and cost no allocation here.
func scanTokens(piece string) int {
	var boundsArr [scanMax + 1]int
	var ranksArr [scanMax + 1]uint32
	bounds, ranks := boundsArr[:len(piece)+1], ranksArr[:len(piece)+1]
	// pairRank is the rank of the join of the parts from boundary i up to the one skip+2
	// boundaries on; noPair past the end or when the join is not a token.
	pairRank := func(i, skip int) uint32 {
		if i+skip+2 < len(bounds) {
			if r, ok := rankOf(piece[bounds[i]:bounds[i+skip+2]]); ok {
				return r
			}
		}
		return noPair
	}
	for i := range bounds {
		bounds[i] = i
	}
	for i := range ranks {
		ranks[i] = pairRank(i, 0)
	}
	for len(bounds) > 1 {
		low, at := noPair, 0
		for i, r := range ranks[:len(ranks)-1] {
			if r < low {
				low, at = r, i
			}
		}
		if low == noPair {
			break
		}
		ranks[at] = pairRank(at, 1)
		if at > 0 {
			ranks[at-1] = pairRank(at-1, 1)
		}
		bounds = append(bounds[:at+1], bounds[at+2:]...)
		ranks = append(ranks[:at+1], ranks[at+2:]...)
	}
	return len(bounds) - 1
}

// noPair is the rank of a boundary whose pair with the next part is not a token.
const noPair = ^uint32(0)

// merger is the state of one piece's byte-pair merge: its part boundaries as a linked list
// (next of a boundary merged away is -1, of the last -2), each with the rank of the token
// its part and the next one would join into.
type merger struct {
	piece      string
	next, prev []int
	rank       []uint32
	queue      pairQueue
	parts      int
}

func newMerger(piece string) *merger {
	n := len(piece)
	m := &merger{piece: piece, next: make([]int, n+1), prev: make([]int, n+1), rank: make([]uint32, n+1), parts: n}
	for i := range n + 1 {
		m.next[i], m.prev[i], m.rank[i] = i+1, i-1, noPair
	}
	m.next[n] = -2
	for i := range n - 1 {
		m.rerank(i)
	}
	return m
}

// rerank sets the rank of the pair starting at boundary i and queues it if it is a token.
func (m *merger) rerank(i int) {
	m.rank[i] = noPair
	j := m.next[i]
	if j < 0 || m.next[j] < 0 {
		return
	}
	if r, ok := rankOf(m.piece[i:m.next[j]]); ok {
		m.rank[i] = r
		heap.Push(&m.queue, pairAt{r, i})
	}
}

// merge joins the part at boundary i with the next one.
func (m *merger) merge(i int) {
	j := m.next[i]
	m.next[i] = m.next[j]
	if k := m.next[j]; k >= 0 {
		m.prev[k] = i
	}
	m.next[j], m.rank[j] = -1, noPair
	m.parts--
	m.rerank(i)
	if p := m.prev[i]; p >= 0 {
		m.rerank(p)
	}
}

// pairAt is a pair of parts that can merge: the rank of their join, and where it starts.
type pairAt struct {
	rank uint32
	at   int
}

// pairQueue is a min-heap of pairs by rank, then by position (the leftmost first).
type pairQueue []pairAt

func (q pairQueue) Len() int { return len(q) }
func (q pairQueue) Less(a, b int) bool {
	return q[a].rank < q[b].rank || (q[a].rank == q[b].rank && q[a].at < q[b].at)
}
func (q pairQueue) Swap(a, b int) { q[a], q[b] = q[b], q[a] }
func (q *pairQueue) Push(x any)   { *q = append(*q, x.(pairAt)) }
func (q *pairQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
