package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
)

// File-history snapshots: taking them, listing them, reading one file of one, restoring
// files from them. Reading and writing files runs off the JS thread.
func init() {
	native.Register("snapshotFiles", snapshotFiles)
	native.Register("fileSnapshots", fileSnapshotsSync)
	native.Register("fileSnapshotsAsync", fileSnapshotsAsync)
	native.Register("fileContent", fileContentSync)
	native.Register("fileContentAsync", fileContentAsync)
	native.Register("restoreFiles", restoreFiles)
}

// snapshotFiles(session, pathsJSON, optionsJSON?) -> Promise<JSON of the FileSnapshot>. A
// snapshot with no messageUuid is of the head when called.
func snapshotFiles(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	var paths []string
	if err := decodeArg(c, 1, "paths", &paths); err != nil {
		return native.Value{}, err
	}
	var opts snapshots.TakeOptions
	if err := decodeArg(c, 2, "options", &opts); err != nil {
		return native.Value{}, err
	}
	if opts.MessageUUID == "" {
		if opts.MessageUUID, err = s.Head(); err != nil {
			return native.Value{}, err
		}
	}
	return c.Promise(func() (native.Settler, error) {
		snap, err := snapshots.Take(s, paths, opts)
		return jsonSettler(snap, err)
	})
}

// fileSnapshots(session, messageUuid?) -> JSON of FileSnapshot[]
func fileSnapshotsSync(c *native.Call) (native.Value, error) {
	s, uuid, err := sessionAndUUID(c)
	if err != nil {
		return native.Value{}, err
	}
	b, err := snapshots.List(s, uuid)
	if err != nil {
		return native.Value{}, err
	}
	return c.StringFromBytes(b), nil
}

// fileSnapshotsAsync(session, messageUuid?) -> Promise<JSON of FileSnapshot[]>
func fileSnapshotsAsync(c *native.Call) (native.Value, error) {
	s, uuid, err := sessionAndUUID(c)
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		b, err := snapshots.List(s, uuid)
		return func(sc *native.Scope) (native.Value, error) { return sc.StringFromBytes(b), nil }, err
	})
}

func sessionAndUUID(c *native.Call) (*session.Session, string, error) {
	s, err := sessionArg(c)
	if err != nil {
		return nil, "", err
	}
	uuid, _, err := c.OptStringArg(1, "messageUuid")
	return s, uuid, err
}

// fileContentSync(session, snapshotId, path) -> Buffer | null
func fileContentSync(c *native.Call) (native.Value, error) {
	s, snapshotID, path, err := fileContentArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	content, err := snapshots.FileContent(s, snapshotID, path)
	if err != nil {
		return native.Value{}, err
	}
	return bufferOrNull(&c.Scope, content), nil
}

// fileContentAsync(session, snapshotId, path) -> Promise<Buffer | null>
func fileContentAsync(c *native.Call) (native.Value, error) {
	s, snapshotID, path, err := fileContentArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		content, err := snapshots.FileContent(s, snapshotID, path)
		return func(sc *native.Scope) (native.Value, error) { return bufferOrNull(sc, content), nil }, err
	})
}

// fileContentArgs decodes the (session, snapshotId, path) arguments of fileContent and
// fileContentAsync.
func fileContentArgs(c *native.Call) (*session.Session, string, string, error) {
	s, err := sessionArg(c)
	if err != nil {
		return nil, "", "", err
	}
	snapshotID, err := c.StringArg(1, "snapshotId")
	if err != nil {
		return nil, "", "", err
	}
	path, err := c.StringArg(2, "path")
	return s, snapshotID, path, err
}

// bufferOrNull is content as a Buffer; null when there is none (a file deleted at the
// snapshot), which an empty file is not.
func bufferOrNull(sc *native.Scope, content []byte) native.Value {
	if content == nil {
		return sc.Null()
	}
	return sc.Buffer(content)
}

// restoreFiles(session, messageUuid, optionsJSON) -> Promise<JSON of the RestoreResult>
func restoreFiles(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	uuid, err := c.StringArg(1, "messageUuid")
	if err != nil {
		return native.Value{}, err
	}
	var opts snapshots.RestoreOptions
	if err := decodeArg(c, 2, "options", &opts); err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		res, err := snapshots.Restore(s, uuid, opts)
		return jsonSettler(res, err)
	})
}
