package hosted

import (
	"fmt"
	"strings"

	"github.com/sessionkeep/sessionkeep/session"
)

// ParseKey checks a hosted agent's session key, <workspace>:<channel>:<handle>, and
// returns it whole. On a store opened for a workspace (workspace not empty), the key may
// leave the workspace out (<channel>:<handle>), and a key of another workspace is refused.
func ParseKey(key, workspace string) (string, error) {
	parts := strings.Split(key, ":")
	switch {
	case len(parts) == 2 && parts[0] != "" && parts[1] != "":
		if workspace == "" {
			return "", fmt.Errorf("%w: %q names a channel and a handle but no workspace: keys are <workspace>:<channel>:<handle>, or open the store with openWorkspaceStore(workspaceId)", session.ErrWorkspaceRequired, key)
		}
		return workspace + ":" + key, nil
	case len(parts) == 3 && parts[0] == "" && parts[1] != "" && parts[2] != "":
		return "", fmt.Errorf("%w: %q has an empty workspace: keys are <workspace>:<channel>:<handle>", session.ErrWorkspaceRequired, key)
	case len(parts) == 3 && parts[1] != "" && parts[2] != "":
		if workspace != "" && parts[0] != workspace {
			return "", fmt.Errorf("%w: %q belongs to workspace %q, but this store holds workspace %q", session.ErrInvalidArgument, key, parts[0], workspace)
		}
		return key, nil
	}
	return "", fmt.Errorf("%w: session key %q must be <workspace>:<channel>:<handle>, each part non-empty and without ':'", session.ErrInvalidArgument, key)
}
