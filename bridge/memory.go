package bridge

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/metrics"
	"runtime/pprof"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// The Go side's memory inside a running Node process, which shares its resident memory
// with V8: __goMemory() returns, as JSON, what the Go runtime holds (goTotal: every byte it
// mapped; goHeap: the bytes of live and not yet collected objects), and
// __writeHeapProfile(path) writes a heap profile (`go tool pprof` reads it). For bench/
// (make bench-big measures Node and Go apart with them); not part of the public API. What
// SQLite allocates (modernc.org/libc's own heap) is in neither figure.
func init() {
	native.Register("__goMemory", goMemory)
	native.Register("__writeHeapProfile", writeHeapProfile)
}

// goMemoryMetrics are the runtime/metrics __goMemory reads, by the name it gives each.
var goMemoryMetrics = map[string]string{
	"goTotal": "/memory/classes/total:bytes",
	"goHeap":  "/memory/classes/heap/objects:bytes",
}

func goMemory(c *native.Call) (native.Value, error) {
	samples := make([]metrics.Sample, 0, len(goMemoryMetrics))
	for _, name := range goMemoryMetrics {
		samples = append(samples, metrics.Sample{Name: name})
	}
	metrics.Read(samples)
	out := map[string]uint64{}
	for field, name := range goMemoryMetrics {
		for _, s := range samples {
			if s.Name == name && s.Value.Kind() == metrics.KindUint64 {
				out[field] = s.Value.Uint64()
			}
		}
	}
	text, err := json.Marshal(out)
	if err != nil {
		return native.Value{}, err
	}
	return c.String(string(text)), nil
}

func writeHeapProfile(c *native.Call) (native.Value, error) {
	path, err := c.StringArg(0, "path")
	if err != nil {
		return native.Value{}, err
	}
	f, err := os.Create(path)
	if err != nil {
		return native.Value{}, fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		return native.Value{}, fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	return c.Undefined(), nil
}
