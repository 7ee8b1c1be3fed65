package bench

import "fmt"

// UsageError is a mistake in what a front end was given (a flag's value, a
// file named on its command line, a list of boards out of range), as opposed
// to a run that failed: the command line exits with status 2 on it.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}
