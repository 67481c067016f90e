package postgres

import (
	"encoding/json"
	"strings"
	"testing"
)

// planLines returns the plan PostgreSQL makes for query with args, after the statements
// before run in the same batch (as the store runs its settings), one line per node: the
// node type and its index.
func planLines(t *testing.T, s *Store, query string, args []any, before ...batchQuery) string {
	t.Helper()
	var plan string
	queries := append(append([]batchQuery(nil), before...), batchQuery{sql: `EXPLAIN (FORMAT JSON) ` + query, args: args, fn: func(row []any) error {
		raw, err := json.Marshal(row[0])
		plan = string(raw)
		return err
	}})
	if err := s.read(func(c conn) error { return c.queryBatch(queries...) }); err != nil {
		t.Fatal(err)
	}
	var nodes []struct{ Plan planNode }
	if err := json.Unmarshal([]byte(plan), &nodes); err != nil || len(nodes) != 1 {
		t.Fatalf("the plan %s: %v", plan, err)
	}
	var lines []string
	nodes[0].Plan.walk(func(n planNode) { lines = append(lines, strings.TrimSpace(n.Type+" "+n.Index)) })
	return strings.Join(lines, "\n")
}

// planNode is a node of EXPLAIN (FORMAT JSON)'s plan.
type planNode struct {
	Type  string     `json:"Node Type"`
	Index string     `json:"Index Name"`
	Plans []planNode `json:"Plans"`
}

// walk calls fn with n and then with each node under it, depth first.
func (n planNode) walk(fn func(planNode)) {
	fn(n)
	for _, p := range n.Plans {
		p.walk(fn)
	}
}
