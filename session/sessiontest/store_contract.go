package sessiontest

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// Backend opens stores of one storage backend for StoreContract: Fresh names a new, empty
// store; Open opens the store at a name, as one more process or host would, closing it at
// the test's cleanup.
type Backend struct {
	Fresh func(t *testing.T) string
	Open  func(t *testing.T, name string) session.Store
}

// StoreContract checks what every backend does alike when several processes share one
// store, each process a Store of its own: a conversation written by one is read back byte
// for byte by the next, a hosted agent's key asked for by several at once makes one
// session, a second writer appending to a session another is appending to has its
// conflicting records refused with ErrStorage from Flush, nothing of the first's lost, and a
// session rewound by one is read and continued on its branch by the next
// (branchedContract).
func StoreContract(t *testing.T, b Backend) {
	t.Run("the next process reads a conversation byte for byte", func(t *testing.T) {
		name := b.Fresh(t)
		m := session.NewManager(b.Open(t, name))
		s, err := m.Create(session.CreateOptions{ProjectPath: "/work/api", Title: "contract", Model: "claude-test"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AppendUserMessage([]byte(`"Why does the login endpoint return 500? \u00e9\u2603 \"quoted\""`)); err != nil {
			t.Fatal(err)
		}
		Feed(t, s, Start("msg_1"), Thinking("Let me look."), Signature("sig=="), Text("Reading the handler."),
			ToolUse("toolu_1", "Read", `{"path":"src/auth.go","limit":42}`), Done("tool_use", `{"input_tokens":12,"output_tokens":7}`))
		written, err := s.Messages(true)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		next := session.NewManager(b.Open(t, name))
		again, err := next.Open(s.ID())
		if err != nil {
			t.Fatal(err)
		}
		read, err := again.Messages(true)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(written, read) {
			t.Fatalf("another process read\n%s\nwhere this one wrote\n%s", read, written)
		}
		if !bytes.Contains(read, []byte(`"src/auth.go"`)) || !bytes.Contains(read, []byte("Reading the handler.")) {
			t.Fatalf("the conversation lost its blocks: %s", read)
		}
	})

	t.Run("one session for a key asked for by several processes at once", func(t *testing.T) {
		name := b.Fresh(t)
		const processes = 4
		ids := make([]string, processes)
		errs := make([]error, processes)
		var wg sync.WaitGroup
		for i := range processes {
			m := session.NewManager(b.Open(t, name))
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := m.ByKey("acme:general:bot", true, session.CreateOptions{Title: fmt.Sprint("worker ", i)})
				if err == nil {
					ids[i] = s.ID()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i := range processes {
			if errs[i] != nil {
				t.Fatalf("process %d: %v", i, errs[i])
			}
			if ids[i] != ids[0] {
				t.Fatalf("processes got different sessions for one key: %v", ids)
			}
		}
	})

	t.Run("a second writer's conflicting append is refused, the first's kept", func(t *testing.T) {
		name := b.Fresh(t)
		first := session.NewManager(b.Open(t, name))
		s1, err := first.Create(session.CreateOptions{Title: "two writers"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s1.Flush(); err != nil {
			t.Fatal(err)
		}
		second := session.NewManager(b.Open(t, name))
		s2, err := second.Open(s1.ID())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s1.AppendUserMessage([]byte(`"from the first"`)); err != nil {
			t.Fatal(err)
		}
		if err := s1.Flush(); err != nil {
			t.Fatal(err)
		}
		if _, err := s2.AppendUserMessage([]byte(`"from the second"`)); err != nil {
			t.Fatal(err)
		}
		if err := s2.Flush(); !errors.Is(err, session.ErrSessionConflict) {
			t.Fatalf("the second writer's Flush = %v, want ErrSessionConflict", err)
		}
		third := session.NewManager(b.Open(t, name))
		s3, err := third.Open(s1.ID())
		if err != nil {
			t.Fatal(err)
		}
		read, err := s3.Messages(false)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(read, []byte("from the first")) || bytes.Contains(read, []byte("from the second")) {
			t.Fatalf("the session holds %s", read)
		}
	})
	branchedContract(t, b)
}
