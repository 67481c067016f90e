package snapshots

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessionkeep/sessionkeep/session"
)

// Snapshot paths are relative to the folder the files were read from, slash-separated
// whatever the platform, with no "." or ".." elements, so that restoreFiles can put them
// into any folder and never outside it.

// snapshotPath returns the snapshot path of the file p, given absolute or relative to
// root; session.ErrPathEscape when it is not inside root.
func snapshotPath(root, p string) (string, error) {
	if p == "" || strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: %q is not a file path", session.ErrInvalidArgument, p)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(abs))
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%w: %s is not inside %s", session.ErrPathEscape, p, root)
	}
	return filepath.ToSlash(rel), nil
}

// snapshotPath returns the snapshot path of the file p, given absolute (under the folder
// as named or as it really is) or relative to the folder.
func (f *folder) snapshotPath(p string) (string, error) {
	rel, err := snapshotPath(f.dir, p)
	if errors.Is(err, session.ErrPathEscape) && filepath.IsAbs(p) && f.real != f.dir {
		rel, err = snapshotPath(f.real, p)
	}
	return rel, err
}

// localPath checks a snapshot path before anything is written to it: relative, "/"
// separated, with no ".." element, no drive or backslash. It returns the path cleaned.
func localPath(p string) (string, error) {
	escape := func(why string) (string, error) {
		return "", fmt.Errorf("%w: snapshot path %q %s; restoreFiles writes only inside the folder it is given", session.ErrPathEscape, p, why)
	}
	switch {
	case p == "" || strings.ContainsRune(p, 0):
		return escape("is not a file path")
	case path.IsAbs(p) || filepath.IsAbs(p) || filepath.VolumeName(p) != "" || hasDrive(p):
		return escape("is absolute")
	case strings.Contains(p, `\`):
		return escape(`has a backslash`)
	}
	for _, e := range strings.Split(p, "/") {
		if e == ".." {
			return escape(`has a ".." element`)
		}
	}
	clean := path.Clean(p)
	if clean == "." || !filepath.IsLocal(filepath.FromSlash(clean)) {
		return escape("does not name a file")
	}
	return clean, nil
}

// hasDrive reports whether p starts with a Windows drive ("C:"), which a path read on
// Windows and restored elsewhere may carry.
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
}

// folder is a directory files are read from or restored into, with its real location (its
// own symbolic links resolved), against which every path is checked.
type folder struct {
	dir  string
	real string
	root *os.Root
}

// openFolder opens dir; create makes it first when it does not exist.
func openFolder(dir string, create bool) (*folder, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	if create {
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, fmt.Errorf("%w: creating %s: %v", session.ErrFileAccess, abs, err)
		}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", session.ErrFileAccess, abs, err)
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", session.ErrFileAccess, abs, err)
	}
	return &folder{dir: abs, real: real, root: root}, nil
}

func (f *folder) close() { f.root.Close() }

// check makes sure the snapshot path p stays inside the folder on disk: every symbolic link
// met on the way, the last element's included, must be relative and lead to a place
// inside. It returns what p names now, nil when nothing does. A link that points out is
// session.ErrPathEscape; anything on the way that cannot hold p (a file where a folder must be)
// is session.ErrFileAccess.
func (f *folder) check(p string) (fs.FileInfo, error) {
	fi, err := f.walk(p)
	if err != nil {
		return nil, err
	}
	// os.Root, which does the reading and writing, must agree that p stays inside.
	if _, err := f.root.Lstat(filepath.FromSlash(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("%w: %s: %v", session.ErrFileAccess, p, err)
		}
		return nil, fmt.Errorf("%w: %s leads outside %s: %v", session.ErrPathEscape, p, f.dir, err)
	}
	return fi, nil
}

// walk follows p element by element from the folder, checking each symbolic link met.
func (f *folder) walk(p string) (fs.FileInfo, error) {
	elems := strings.Split(p, "/")
	cur := f.real
	for i, e := range elems {
		cur = filepath.Join(cur, e)
		last := i == len(elems)-1
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", session.ErrFileAccess, p, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if fi, err = f.followLink(p, cur); err != nil {
				return nil, err
			}
			if fi == nil && !last {
				return nil, fmt.Errorf("%w: %s: %s is a symbolic link to nothing", session.ErrFileAccess, p, path.Join(elems[:i+1]...))
			}
		}
		if last {
			return fi, nil
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%w: %s: %s is not a folder", session.ErrFileAccess, p, path.Join(elems[:i+1]...))
		}
	}
	return nil, nil
}

// followLink checks the symbolic link at link, met on the way to p, and returns what it
// leads to (nil when nothing).
func (f *folder) followLink(p, link string) (fs.FileInfo, error) {
	escape := fmt.Errorf("%w: %s goes through the symbolic link %s, which points outside %s", session.ErrPathEscape, p, link, f.dir)
	target, err := os.Readlink(link)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", session.ErrFileAccess, p, err)
	}
	if filepath.IsAbs(target) {
		return nil, escape // os.Root follows only relative links
	}
	resolved, err := filepath.EvalSymlinks(link)
	if errors.Is(err, fs.ErrNotExist) {
		resolved = filepath.Join(filepath.Dir(link), target) // dangling: where it would lead
	} else if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", session.ErrFileAccess, p, err)
	}
	if rel, err := filepath.Rel(f.real, resolved); err != nil || !filepath.IsLocal(rel) {
		return nil, escape
	}
	fi, err := os.Stat(link)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", session.ErrFileAccess, p, err)
	}
	return fi, nil
}
