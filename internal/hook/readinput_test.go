package hook

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadInputReaders: every size reads back whole, however the reader hands it
// over (in memory with a length, a pipe's short reads); past the cap it is
// refused, and blank input is empty.
func TestReadInputReaders(t *testing.T) {
	readers := map[string]func([]byte) io.Reader{
		"in memory":   func(b []byte) io.Reader { return bytes.NewReader(b) },
		"stream":      func(b []byte) io.Reader { return io.MultiReader(bytes.NewReader(b)) },
		"short reads": func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) },
	}
	for name, wrap := range readers {
		for _, size := range []int{1, smallEvent - 1, smallEvent, smallEvent + 1, 3 << 20, MaxEventBytes} {
			in := bytes.Repeat([]byte("{"), size)
			got, err := ReadInput(wrap(in))
			if err != nil || !bytes.Equal(got, in) {
				t.Errorf("%s, %d bytes: read %d bytes, err %v", name, size, len(got), err)
			}
		}
		if _, err := ReadInput(wrap(bytes.Repeat([]byte("x"), MaxEventBytes+1))); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s, over the cap: err %v, want ErrTooLarge", name, err)
		}
		if _, err := ReadInput(wrap([]byte(" \n\t"))); !errors.Is(err, ErrEmpty) {
			t.Errorf("%s, blank: err %v, want ErrEmpty", name, err)
		}
	}
	if _, err := ReadInput(iotest.ErrReader(errors.New("broken pipe"))); err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("a failing reader: err %v", err)
	}
}
