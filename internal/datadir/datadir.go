// Package datadir finds the shared benchmark data (Korf's instances, the
// jigsaw image sets, SameGame positions, edge-matching sets): the folder
// named by $TESSERA_DATA, or else shared/data next to the checkout
// (../shared/data from the module root). A user's clone has no such folder;
// tests that need it skip with the error's message.
package datadir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// EnvVar names the environment variable that overrides the data folder.
const EnvVar = "TESSERA_DATA"

// ErrNotFound is returned when the data folder cannot be found.
var ErrNotFound = errors.New("datadir: shared benchmark data not found")

// Dir returns the data folder: $TESSERA_DATA if set, else ../shared/data
// relative to the module root, found by walking up from the working
// directory to the folder that holds go.mod.
func Dir() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return "", fmt.Errorf("%w: %s=%s is not a folder", ErrNotFound, EnvVar, d)
		}
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "data")
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				return filepath.Clean(d), nil
			}
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return "", fmt.Errorf("%w: set %s or put it at ../shared/data next to the checkout", ErrNotFound, EnvVar)
}

// Path returns the path of elem inside the data folder, checking that it
// exists.
func Path(elem ...string) (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(append([]string{d}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%w: %s is missing", ErrNotFound, p)
	}
	return p, nil
}

// Resolve finds a file or folder named on a command line: name itself when
// it exists; else, for a relative name, name inside the data folder, then
// inside its family's folder there (family/name, as "korf100" names
// sliding/korf100.txt), each also with ".txt". The error says where it
// looked, and what to set when there is no data folder.
func Resolve(name, family string) (string, error) {
	if _, err := os.Stat(name); err == nil || name == "" || filepath.IsAbs(name) {
		return name, err
	}
	d, derr := Dir()
	if derr != nil {
		return "", fmt.Errorf("%s: no such file, and no shared data folder to look in: set %s to it", name, EnvVar)
	}
	var tried []string
	for _, dir := range []string{d, filepath.Join(d, family)} {
		for _, ext := range []string{"", ".txt"} {
			p := filepath.Join(dir, name+ext)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
			tried = append(tried, p)
		}
		if family == "" {
			break
		}
	}
	return "", fmt.Errorf("%s: no such file, nor %s", name, strings.Join(tried, ", "))
}
