package play

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// keyLoop runs a terminal game. When in is a terminal it switches it to raw
// mode (restored on return) and calls raw, so that the game ends its lines
// in "\r\n" and redraws in place; then, until q, Q, Ctrl-C, Esc, the end of
// input or the end of ctx, it draws render's screen and hands every other
// key to handle.
func keyLoop(ctx context.Context, in io.Reader, out io.Writer, raw func(), render func() string, handle func(key string)) error {
	eol := "\n"
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		state, err := term.MakeRaw(int(f.Fd()))
		if err != nil {
			return err
		}
		defer term.Restore(int(f.Fd()), state)
		raw()
		eol = "\r\n"
	}
	keys := bufio.NewReader(in)
	for {
		fmt.Fprint(out, render())
		if ctx.Err() != nil {
			return nil
		}
		k, err := ReadKey(keys)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch k {
		case "q", "Q", "\x03", "\x1b":
			fmt.Fprint(out, "bye"+eol)
			return nil
		}
		handle(k)
	}
}

// ReadKey reads one key from a terminal in raw mode: a byte, or an escape
// sequence for an arrow ("\x1b[A" up, B down, C right, D left).
func ReadKey(r *bufio.Reader) (string, error) {
	c, err := r.ReadByte()
	if err != nil {
		return "", err
	}
	if c != 0x1b {
		return string(c), nil
	}
	seq := []byte{c}
	for len(seq) < 3 {
		c, err := r.ReadByte()
		if err != nil {
			break
		}
		seq = append(seq, c)
	}
	return string(seq), nil
}
