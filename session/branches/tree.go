package branches

import (
	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// Tree is a session's records as a tree, for a history view: every record once, in the
// order written, each naming its children, with the head and the branch that ends at it
// marked.
type Tree struct {
	// Head is the uuid of the main-chain record the next message follows; nil when the
	// session has no messages.
	Head  *string    `json:"head"`
	Roots []string   `json:"roots"`
	Nodes []TreeNode `json:"nodes"`
}

// TreeNode is one record of a Tree.
type TreeNode struct {
	UUID       string  `json:"uuid"`
	ParentUUID *string `json:"parentUuid"` // as stored; nil for none
	Type       string  `json:"type"`
	Role       string  `json:"role,omitempty"`
	Turn       int64   `json:"turn"`
	Status     string  `json:"status"`
	Timestamp  string  `json:"timestamp"`
	Preview    string  `json:"preview"`
	// Children are the records whose parent in the tree this is, in the order written:
	// the next record of its chain, the first of each branch, and the first record of each
	// sidechain one of its tool calls started.
	Children []string `json:"children"`
	IsHead   bool     `json:"isHead"`
	// OnBranch marks the records of the branch that ends at the head: what Messages gives.
	OnBranch        bool   `json:"onBranch"`
	IsSidechain     bool   `json:"isSidechain"`
	AgentID         string `json:"agentId,omitempty"`
	ParentToolUseID string `json:"parentToolUseId,omitempty"`
}

// ReadTree returns the session's tree as JSON.
func ReadTree(s *session.Session) ([]byte, error) {
	if err := s.Sync(); err != nil {
		return nil, err
	}
	t, err := s.TreeShape()
	if err != nil {
		return nil, err
	}
	view := newView(t)
	err = s.Store().ScanMessages(s.ID(), func(m *session.StoredMessage) error {
		if i := t.IndexOfSeq(m.Seq); i >= 0 {
			view.Nodes[i].describe(m)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return json.Marshal(view)
}

// newView lays the tree out as a Tree.
func newView(t session.TreeShape) Tree {
	v := Tree{Roots: []string{}, Nodes: make([]TreeNode, len(t.Links))}
	for i, l := range t.Links {
		n := &v.Nodes[i]
		*n = TreeNode{UUID: l.UUID, Type: l.Type, Role: l.Role, Turn: l.Turn, Children: []string{},
			IsHead: i == t.Head, OnBranch: t.OnBranch[i], IsSidechain: l.IsSidechain}
		if l.ParentUUID != "" {
			n.ParentUUID = &t.Links[i].ParentUUID
		}
		if p := t.Parent[i]; p >= 0 {
			v.Nodes[p].Children = append(v.Nodes[p].Children, l.UUID)
		} else {
			v.Roots = append(v.Roots, l.UUID)
		}
	}
	if t.Head >= 0 {
		v.Head = &t.Links[t.Head].UUID
	}
	return v
}

// describe fills in what a node shows of its record beside its place in the tree.
func (n *TreeNode) describe(m *session.StoredMessage) {
	n.Status = m.Status
	n.Timestamp = jsonenc.FormatTime(m.CreatedAt)
	n.Preview = preview(m.Blocks)
	if m.IsSidechain {
		var side struct {
			AgentID         string `json:"agentId"`
			ParentToolUseID string `json:"parentToolUseId"`
		}
		if json.Unmarshal(m.Extra, &side) == nil {
			n.AgentID, n.ParentToolUseID = side.AgentID, side.ParentToolUseID
		}
	}
}
