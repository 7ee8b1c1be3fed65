//go:build scratch

package samegame
import ("context";"testing";"time";"math/rand/v2";"os";"strconv";"strings";"encoding/json")
func TestScratchExact(t *testing.T) {
	tb, _ := strconv.Atoi(os.Getenv("TB"))
	rng := rand.New(rand.NewPCG(1, 1))
	var bs []*Board
	for range 12 { bs = append(bs, Random(8, 6, 5, Dust, rng)) }
	ex := readSet(t, "dust_blog_examples.txt", Dust)
	bs = append(bs, ex[0].Board, ex[1].Board)
	if f, err := os.Open("/tmp/sg/dust100.txt"); err == nil {
		es, _ := ParseSet(f, Dust)
		for _, e := range es { bs = append(bs, e.Board) }
	}
	for _, f := range strings.Split(os.Getenv("BOARDS"), ",") {
		i, _ := strconv.Atoi(f)
		b := bs[i]
		ctx, cancel := context.WithTimeout(context.Background(), 600*time.Second)
		sol, err := Solve(ctx, b, Options{Algorithm: Exact, TableBits: tb})
		cancel()
		t.Logf("%d: clicks %d optimal %v nodes %d %.2fs err %v", i, sol.Clicks, sol.Optimal, sol.Nodes, sol.Elapsed.Seconds(), err)
	}
}

func TestScratchDFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var bs []*Board
	for range 12 { bs = append(bs, Random(8, 6, 5, Dust, rng)) }
	ex := readSet(t, "dust_blog_examples.txt", Dust)
	bs = append(bs, ex[0].Board, ex[1].Board)
	sec, _ := strconv.Atoi(os.Getenv("SEC"))
	for _, f := range strings.Split(os.Getenv("BOARDS"), ",") {
		i, _ := strconv.Atoi(f)
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(sec)*time.Second)
		sol, err := Solve(ctx, bs[i], Options{Algorithm: DFS})
		cancel()
		t.Logf("%d: dfs clicks %d nodes %d %.2fs err %v", i, sol.Clicks, sol.Nodes, sol.Elapsed.Seconds(), err)
	}
}

func TestScratchShow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var bs []*Board
	for range 12 { bs = append(bs, Random(8, 6, 5, Dust, rng)) }
	for _, i := range []int{1, 8, 4, 2} {
		gs := bs[i].Groups(nil)
		var cnt [5]int
		for _, g := range gs { cnt[g.Color]++ }
		t.Logf("board %d: %d groups %v\n%s", i, len(gs), cnt, Format(bs[i], Letters))
	}
}

func TestScratchBeamQ(t *testing.T) {
	f, _ := os.Open("/tmp/sg/dust100.txt")
	es, _ := ParseSet(f, Dust)
	kb, _ := os.ReadFile("/tmp/sg/known_opt.json")
	var known map[string]int
	json.Unmarshal(kb, &known)
	for _, w := range []int{1000} {
		start := time.Now()
		hit, off, n := 0, 0, 0
		for k, v := range known {
			i, _ := strconv.Atoi(k)
			sol, _ := Solve(context.Background(), es[i-1].Board, Options{Algorithm: Beam, BeamWidth: w})
			n++
			if sol.Clicks == v { hit++ } else { off += sol.Clicks - v }
		}
		t.Logf("width %d: %d/%d optimal, total excess %d, %.1fs", w, hit, n, off, time.Since(start).Seconds())
	}
}
