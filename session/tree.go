package session

import "sort"

// Link is a record's place in its session's tree, as a Store reads it without the
// record's blocks.
type Link struct {
	Seq         int64
	UUID        string
	ParentUUID  string
	Type        string
	Role        string // "" for a record that is not a message
	Turn        int64
	IsSidechain bool
	Continues   bool
	// ToolUseSeq is, for a sidechain record that names the tool call that started it, the
	// seq of the record holding that call; -1 when there is none or it is unknown.
	ToolUseSeq int64
	Usage      Usage
}

// tree is a session's records linked by parentUuid. Every record has one parent in the
// tree, always written before it, or none:
//   - a main-chain record's parent is the main-chain record its parentUuid names; when that
//     names nothing earlier on the main chain (the first record, or a transcript that starts
//     a chain afresh after a compaction, or a dangling reference) it is the main-chain
//     record written before it, so a history with gaps in its links still reads as one;
//   - a sidechain record's parent is the record its parentUuid names, else the record
//     holding the tool call that started the sidechain, else none.
//
// Parents always come earlier in seq order, so damaged links can never make a cycle.
type tree struct {
	links    []Link
	parent   []int // index of each record's parent, -1 for none
	children []int // number of children of each record
	byUUID   map[string]int
}

func newTree(links []Link) *tree {
	t := &tree{links: links, parent: make([]int, len(links)), children: make([]int, len(links)),
		byUUID: make(map[string]int, len(links))}
	lastMain := -1
	for i, l := range links {
		if _, dup := t.byUUID[l.UUID]; !dup {
			t.byUUID[l.UUID] = i
		}
		p, named := t.byUUID[l.ParentUUID]
		named = named && l.ParentUUID != "" && p < i
		switch {
		case !l.IsSidechain && named && !links[p].IsSidechain:
		case !l.IsSidechain:
			p = lastMain
		case named:
		default:
			p = t.indexOfSeq(l.ToolUseSeq, i)
		}
		t.parent[i] = p
		if p >= 0 {
			t.children[p]++
		}
		if !l.IsSidechain {
			lastMain = i
		}
	}
	return t
}

// indexOfSeq returns the index of the record with seq, if it comes before index before;
// -1 otherwise.
func (t *tree) indexOfSeq(seq int64, before int) int {
	if seq < 0 {
		return -1
	}
	i := sort.Search(before, func(i int) bool { return t.links[i].Seq >= seq })
	if i < before && t.links[i].Seq == seq {
		return i
	}
	return -1
}

// find returns the index of the record uuid, -1 when the session has none.
func (t *tree) find(uuid string) int {
	if i, ok := t.byUUID[uuid]; ok && uuid != "" {
		return i
	}
	return -1
}

// branch returns which records are on the branch that ends at the main-chain record head
// (none when head is -1): what the conversation holds when head is its newest message.
// That is head and its ancestors, and with them
//   - records that hang off a message written over several records (a Claude Code assistant
//     message, one block per line) from one of its lines but the last: the tool results of
//     parallel tool calls, each linked to the line of its call;
//   - records that are not messages (progress, notices) with nothing after them, hanging
//     off a record of the branch other than head;
//   - sidechains started from a record of the branch, and sidechains not started from any.
//
// Everything else, records past head and branches left by a rewind, is off the branch.
func (t *tree) branch(head int) []bool {
	on := make([]bool, len(t.links))
	next := make([]int, len(t.links)) // the child on the path, for records on it
	for i, child := head, -1; i >= 0; i, child = t.parent[i], i {
		on[i], next[i] = true, child
	}
	path := on
	on = append([]bool(nil), path...)
	for i, l := range t.links {
		p := t.parent[i]
		switch {
		case path[i]:
		case l.IsSidechain:
			on[i] = p < 0 || on[p]
		case l.Role == "":
			on[i] = true // a record that is not a message (an imported queue operation, a notice) is not part of any one branch
		case p < 0 || !path[p] || p == head:
		default:
			on[i] = t.links[next[p]].Continues || (l.Role == "" && t.children[i] == 0)
		}
	}
	return on
}

// lineage returns the records from the root of the tree to i, root first.
func (t *tree) lineage(i int) []int {
	var line []int
	for ; i >= 0; i = t.parent[i] {
		line = append(line, i)
	}
	for a, b := 0, len(line)-1; a < b; a, b = a+1, b-1 {
		line[a], line[b] = line[b], line[a]
	}
	return line
}

// turns returns the turns of the conversation the records on holds, as positions in it:
// records that are not messages and sidechains are left out, and a record that continues
// the message before it takes that message's place (as conversation joins them).
func (t *tree) turns(on []bool) []Turn {
	turns := []Turn{}
	index := map[int64]int{}
	pos, role := int64(-1), ""
	for i, l := range t.links {
		if !on[i] || l.Role == "" || l.IsSidechain {
			continue
		}
		if !l.Continues || l.Role != role {
			pos++
		}
		role = l.Role
		if k, ok := index[l.Turn]; ok {
			turns[k].StartIndex = min(turns[k].StartIndex, pos)
			turns[k].EndIndex = max(turns[k].EndIndex, pos)
			continue
		}
		index[l.Turn] = len(turns)
		turns = append(turns, Turn{Index: l.Turn, StartIndex: pos, EndIndex: pos})
	}
	sort.Slice(turns, func(a, b int) bool { return turns[a].Index < turns[b].Index })
	return turns
}

// seqs returns the seqs of the records on, in order.
func (t *tree) seqs(on []bool) []int64 {
	var seqs []int64
	for i, l := range t.links {
		if on[i] {
			seqs = append(seqs, l.Seq)
		}
	}
	return seqs
}
