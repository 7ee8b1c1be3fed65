//go:build !unix

package main

import "os"

// lockJournal does nothing where flock(2) is missing: two runs given the
// same journal there append the same subtrees twice, and the next run
// refuses the journal (a subtree searched twice).
func lockJournal(*os.File) error { return nil }
