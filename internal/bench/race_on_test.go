//go:build race

package bench

// raceEnabled is true in a build with -race; see skipGomlxUnderRace.
const raceEnabled = true
