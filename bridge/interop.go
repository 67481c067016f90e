package bridge

import (
	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/persistence/interop"
)

func init() {
	native.Register("importTranscripts", importTranscripts)
	native.Register("exportSession", exportSession)
}

// importTranscripts(store, path, optionsJSON?, onProgress?) -> Promise<JSON of the
// ImportResult>; onProgress(progressJSON) is called as the import goes, before it settles.
func importTranscripts(c *native.Call) (native.Value, error) {
	h, path, err := storeAndString(c, "path")
	if err != nil {
		return native.Value{}, err
	}
	var opts struct {
		Format         string `json:"format"`
		FileHistoryDir string `json:"fileHistoryDir"`
	}
	if err := decodeArg(c, 2, "options", &opts); err != nil {
		return native.Value{}, err
	}
	return c.ProgressPromise(3, "onProgress", func(report func(string)) (native.Settler, error) {
		progress := func(p interop.Progress) {
			b, _ := json.Marshal(p) // plain numbers and strings always encode
			report(string(b))
		}
		// The collector's room (interop.RoomForGC) is kept until the import is indexed,
		// which allocates as the import does; given back at once if it fails or panics.
		gcDone, indexing := interop.RoomForGC(), false
		defer func() {
			if !indexing {
				gcDone()
			}
		}()
		result, err := interop.Import(h.sessions, path, interop.ImportOptions{Format: opts.Format, FileHistoryDir: opts.FileHistoryDir, Progress: progress})
		if err == nil {
			// The import settles once what it wrote is durable; indexing it for search, a
			// third of an import's time, follows in the writer at once, in large slices,
			// while the caller goes on. A search waits for what is still queued, so it
			// finds every imported record; should indexing fail, the records stay queued
			// and that search reports it.
			err = h.store.Sync()
			indexing = true
			go func() {
				defer gcDone()
				_ = h.store.IndexForSearch()
			}()
		}
		return jsonSettler(result, err)
	})
}

// exportSession(store, id, optionsJSON) -> Promise<string | undefined>: the text, or
// undefined once it is written to options.path.
func exportSession(c *native.Call) (native.Value, error) {
	h, id, err := storeAndString(c, "id")
	if err != nil {
		return native.Value{}, err
	}
	var opts struct {
		Format string `json:"format"`
		Path   string `json:"path"`
	}
	if err := decodeArg(c, 2, "options", &opts); err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		text, err := interop.Export(h.sessions, id, interop.ExportOptions{Format: opts.Format, Path: opts.Path})
		if err != nil || opts.Path != "" {
			return undefinedSettler, err
		}
		return func(s *native.Scope) (native.Value, error) { return s.StringFromBytes(text), nil }, nil
	})
}
