package sqlite

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sessionkeep/sessionkeep/session"
)

// WorkspacePath returns the file of a workspace's own store, workspace-<id>-sessions.db
// (the database name of seed 001), in dir, or beside the default store when dir is empty.
func WorkspacePath(workspaceID, dir string) (string, error) {
	if workspaceID == "" {
		return "", fmt.Errorf("%w: the workspace id is empty", session.ErrWorkspaceRequired)
	}
	if strings.ContainsAny(workspaceID, `:/\`) || workspaceID == "." || workspaceID == ".." {
		return "", fmt.Errorf("%w: workspace id %q must not hold ':', '/' or '\\'", session.ErrInvalidArgument, workspaceID)
	}
	if dir == "" {
		def, err := DefaultPath()
		if err != nil {
			return "", err
		}
		dir = filepath.Dir(def)
	}
	return filepath.Join(dir, "workspace-"+workspaceID+"-sessions.db"), nil
}
