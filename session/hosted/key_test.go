package hosted

import (
	"errors"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

func TestParseKey(t *testing.T) {
	cases := []struct {
		key, workspace, want string
		err                  error
	}{
		{"my-app:chat-a1b2:claude", "", "my-app:chat-a1b2:claude", nil},
		{"chat-a1b2:claude", "my-app", "my-app:chat-a1b2:claude", nil},
		{"my-app:chat-a1b2:claude", "my-app", "my-app:chat-a1b2:claude", nil},
		{"chat-a1b2:claude", "", "", session.ErrWorkspaceRequired},
		{":chat-a1b2:claude", "", "", session.ErrWorkspaceRequired},
		{"other:chat:claude", "my-app", "", session.ErrInvalidArgument},
		{"a:b:c:d", "", "", session.ErrInvalidArgument},
		{"a::c", "", "", session.ErrInvalidArgument},
		{"", "", "", session.ErrInvalidArgument},
	}
	for _, c := range cases {
		got, err := ParseKey(c.key, c.workspace)
		if got != c.want || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("ParseKey(%q, %q) = %q, %v; want %q, %v", c.key, c.workspace, got, err, c.want, c.err)
		}
	}
}
