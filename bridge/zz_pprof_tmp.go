package bridge

import (
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

func init() {
	path := os.Getenv("SK_CPUPROFILE")
	if path == "" {
		return
	}
	f, _ := os.Create(path)
	pprof.StartCPUProfile(f)
	secs, _ := strconv.Atoi(os.Getenv("SK_CPUPROFILE_SECS"))
	time.AfterFunc(time.Duration(secs)*time.Second, func() { pprof.StopCPUProfile(); f.Close() })
}
