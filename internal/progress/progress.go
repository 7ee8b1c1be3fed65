// Package progress reports the progress of long work on one status line of
// a terminal (stderr). It is silent when the output is not a terminal unless
// forced (the -progress flag), and then prints plain lines at most once a
// second so logs stay readable.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// Reporter prints status lines. Its methods are safe for concurrent use and
// do nothing on a nil or disabled Reporter.
type Reporter struct {
	w        io.Writer
	terminal bool
	enabled  bool
	interval time.Duration

	mu      sync.Mutex
	last    time.Time
	lastLen int
}

// New returns a Reporter writing to w: active when w is a terminal or when
// force is set.
func New(w io.Writer, force bool) *Reporter {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	r := &Reporter{w: w, terminal: tty, enabled: tty || force, interval: time.Second}
	if tty {
		r.interval = 100 * time.Millisecond
	}
	return r
}

// Enabled reports whether the Reporter prints anything.
func (r *Reporter) Enabled() bool { return r != nil && r.enabled }

// Printf replaces the status line, at most every 100 ms on a terminal and
// every second otherwise; calls in between are dropped.
func (r *Reporter) Printf(format string, args ...any) {
	if !r.Enabled() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if now.Sub(r.last) < r.interval {
		return
	}
	r.last = now
	r.write(fmt.Sprintf(format, args...), false)
}

// Logf prints a line that stays (a finished phase, a new best result).
func (r *Reporter) Logf(format string, args ...any) {
	if !r.Enabled() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.write(fmt.Sprintf(format, args...), true)
}

// Done clears the status line.
func (r *Reporter) Done() {
	if !r.Enabled() || !r.terminal {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastLen > 0 {
		fmt.Fprintf(r.w, "\r%s\r", strings.Repeat(" ", r.lastLen))
		r.lastLen = 0
	}
}

func (r *Reporter) write(s string, keep bool) {
	s = strings.TrimRight(s, "\n")
	if !r.terminal {
		fmt.Fprintln(r.w, s)
		return
	}
	pad := ""
	if n := r.lastLen - len(s); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	if keep {
		fmt.Fprintf(r.w, "\r%s%s\n", s, pad)
		r.lastLen = 0
		return
	}
	fmt.Fprintf(r.w, "\r%s%s", s, pad)
	r.lastLen = len(s)
}

// Counter reports progress through a known number of items.
type Counter struct {
	r     *Reporter
	label string
	total int
	start time.Time

	mu   sync.Mutex
	done int
}

// Counter starts counting total items under label.
func (r *Reporter) Counter(label string, total int) *Counter {
	return &Counter{r: r, label: label, total: total, start: time.Now()}
}

// Add records n more items done and updates the status line with the
// count, the rate and the time left.
func (c *Counter) Add(n int) {
	c.mu.Lock()
	c.done += n
	done := c.done
	c.mu.Unlock()
	el := time.Since(c.start)
	rate := float64(done) / el.Seconds()
	eta := ""
	if done > 0 && done < c.total {
		eta = fmt.Sprintf(", %s left", (time.Duration(float64(c.total-done) / rate * float64(time.Second))).Round(time.Second))
	}
	c.r.Printf("%s: %d/%d (%.1f/s%s)", c.label, done, c.total, rate, eta)
}
