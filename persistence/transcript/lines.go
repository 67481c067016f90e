package transcript

import (
	"bufio"
	"bytes"
	"io"
)

// Lines reads JSONL: each call to Next returns the next line that is not blank, with its
// 1-based number, without its line ending. Lines may be of any length (a line can hold a
// base64 image of megabytes).
type Lines struct {
	r        *bufio.Reader
	n        int
	read     int64 // bytes read so far
	progress func(bytesRead int64)
}

// NewLines reads lines from r. progress, unless nil, is called with the bytes read so far
// each time Next returns a line.
func NewLines(r io.Reader, progress func(bytesRead int64)) *Lines {
	return &Lines{r: bufio.NewReaderSize(r, 64*1024), progress: progress}
}

// Next returns the next line that is not blank; ok is false at the end of the input.
// The line is valid until the next call.
func (l *Lines) Next() (line []byte, number int, ok bool, err error) {
	for {
		raw, err := l.r.ReadBytes('\n')
		l.read += int64(len(raw))
		if len(raw) == 0 && err != nil {
			if err == io.EOF {
				err = nil
			}
			return nil, 0, false, err
		}
		l.n++
		if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 {
			if l.progress != nil {
				l.progress(l.read)
			}
			return trimmed, l.n, true, nil
		}
		if err != nil && err != io.EOF {
			return nil, 0, false, err
		}
	}
}
