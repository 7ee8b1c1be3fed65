package bench

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"tessera/internal/datadir"
	"tessera/npuzzle"
)

// ReadSet reads the instances of the set file path (a file, or a set of
// the shared data's sliding/ folder) into s, with the goal of goalText or,
// with "auto", of the file (npuzzle.ParseSet), and keeps those of the list
// instances ("1-10,38"; "" for all). It returns all the file's instances.
func (s *NpuzzleSet) ReadSet(path, goalText, instances string) ([]npuzzle.Instance, error) {
	path, err := datadir.Resolve(path, "sliding")
	if err != nil {
		return nil, fmt.Errorf("-set %v", err)
	}
	if err := RegularFile(path); err != nil {
		return nil, Usagef("%v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	set, err := npuzzle.ParseSet(f, path)
	f.Close()
	if err != nil {
		return nil, err
	}
	s.Goal, s.Instances = set.Goal, set.Instances
	goalFrom := set.GoalFrom
	if goalText != "auto" {
		if s.Goal, err = npuzzle.ParseGoal(goalText); err != nil {
			return nil, Usagef("%v", err)
		}
		goalFrom = "-goal"
	} else if goalFrom == "" {
		return nil, Usagef("cannot tell the goal of %s from a goal line, its name or its boards: give -goal blank-last or blank-first (or add a line # goal blank-first)", path)
	}
	keep, err := ParseList(instances, len(set.Instances))
	if err != nil {
		return nil, Usagef("-instances: %v", err)
	}
	s.Instances = slices.DeleteFunc(slices.Clone(s.Instances), func(inst npuzzle.Instance) bool { return !slices.Contains(keep, inst.Number) })
	s.Title = fmt.Sprintf("%s: %v boards, goal %v (from the %s)", path, s.Instances[0].Board.Size(), s.Goal, goalFrom)
	return set.Instances, nil
}

// maxReference bounds a reference file of node counts.
const maxReference = 1 << 20

// ReadReference reads published node counts into s.Reference: lines
// "INSTANCE NODES", # comments.
func (s *NpuzzleSet) ReadReference(path string) error {
	data, err := readInput(path, "-reference ", maxReference)
	if err != nil {
		return err
	}
	s.Reference = map[int]int64{}
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		bad := fmt.Errorf("-reference %s:%d: want \"INSTANCE NODES\", got %.60q", path, i+1, line)
		if len(f) != 2 {
			return bad
		}
		n, err1 := strconv.Atoi(f[0])
		nodes, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil || n < 1 || nodes < 0 {
			return bad
		}
		s.Reference[n] = nodes
	}
	return nil
}

// Random draws n boards of size sz from seed into s (uniform, or the game's
// random walk), for the goal of goalText ("auto": blank-last).
func (s *NpuzzleSet) Random(sz npuzzle.Size, n int, uniform bool, seed uint64, goalText string) error {
	s.Goal = npuzzle.BlankLast
	if goalText != "auto" {
		var err error
		if s.Goal, err = npuzzle.ParseGoal(goalText); err != nil {
			return Usagef("%v", err)
		}
	}
	s.Instances = NpuzzleRandom(sz, s.Goal, n, uniform, seed)
	s.Title = fmt.Sprintf("%d %s %v boards (seed %d), goal %v", n, drawKind(uniform), sz, seed, s.Goal)
	return nil
}
