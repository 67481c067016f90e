package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
)

// File-history snapshots: taking them, listing them, restoring files from them. Reading
// and writing files runs off the JS thread.
func init() {
	native.Register("snapshotFiles", snapshotFiles)
	native.Register("fileSnapshots", fileSnapshotsSync)
	native.Register("fileSnapshotsAsync", fileSnapshotsAsync)
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
