package bridge

import (
	"fmt"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/persistence/migrate"
	"github.com/sessionkeep/sessionkeep/session"
)

func init() {
	native.Register("migrateStore", migrateStore)
}

// migrateStore(from, to, onProgress?) -> Promise<JSON of the migrate.Result>: every session
// of store from copied into store to; onProgress(progressJSON) is called after each session.
func migrateStore(c *native.Call) (native.Value, error) {
	from, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	v, err := c.HandleArg(1, "target", storeTag)
	if err != nil {
		return native.Value{}, err
	}
	to := v.(*storeHandle)
	if to == from {
		return native.Value{}, fmt.Errorf("%w: a store cannot be moved into itself", session.ErrInvalidArgument)
	}
	return c.ProgressPromise(2, "onProgress", func(report func(string)) (native.Settler, error) {
		result, err := migrate.Run(from.sessions, to.sessions, func(p migrate.Progress) {
			b, _ := json.Marshal(p) // plain numbers and strings always encode
			report(string(b))
		})
		if err == nil {
			// Index what was copied now, as the move's own cost, rather than in the first search.
			_ = to.store.IndexForSearch()
		}
		return jsonSettler(result, err)
	})
}
