//go:build !race

package web

// raceEnabled is true in a build with -race; see skipGomlxUnderRace.
const raceEnabled = false
