#!/bin/sh
# Builds the two sides of the Eternity II race into .race-e2/ (git-ignored),
# offline: the peer's sources must already be in .race-e2/peer-src/rust
# (NickButcher1/EternityII_Solver at 8ff3126, 2025-12-28, the Rust port of
# jblackwood345/EternityII_Solver: `git archive HEAD rust | tar -x -C
# .race-e2/peer-src`).
#
#   .race-e2/e2peer    the Rust port, one search thread (run it with CORES=2:
#                      it keeps one core for the system). Its eight crates.io
#                      dependencies (no network here) are replaced by the small
#                      stand-ins written below, none of which the search loop
#                      calls: rand (a splitmix64 stream seeded from $E2_SEED,
#                      for the candidate orders and the first corner, as the
#                      port draws from rand's thread generator), md5 (an FNV-1a
#                      digest: only the saved files' names), dirs (home_dir is
#                      $E2_OUT), log and env_logger (info! prints the line with
#                      the Unix time), num_cpus, thousands; chrono is unused.
#                      One edit to its sources: MIN_SOLVE_INDEX_TO_SAVE 252 ->
#                      $E2_MIN_SAVE (default 240), the depth from which every
#                      restart's new deepest board is saved (as a file
#                      $E2_OUT/EternitySolutions/DEPTH_HASH_N.txt), so that
#                      its partial boards can be completed and rescored.
#                      The search itself is untouched (500 M nodes a restart,
#                      new candidate orders every 5 restarts, as published).
#   .race-e2/tessera   cmd/tessera, CGO_ENABLED=0
#
# Run from the repository root: sh docs/notes/eternity2-race/build.sh
set -eu
root=$(pwd)
race=$root/.race-e2
src=$race/peer-src/rust
test -f "$src/src/solve_puzzle.rs" || { echo "missing $src: git archive NickButcher1/EternityII_Solver's HEAD rust into .race-e2/peer-src" >&2; exit 1; }
PATH=$PATH:/root/.cargo/bin
work=$race/peer-build
rm -rf "$work" && mkdir -p "$work" && cp -r "$src"/. "$work"/
cd "$work"
minsave=${E2_MIN_SAVE:-240}
sed -i "s/^pub const MIN_SOLVE_INDEX_TO_SAVE: usize = 252;/pub const MIN_SOLVE_INDEX_TO_SAVE: usize = $minsave;/" src/config.rs
grep -q "MIN_SOLVE_INDEX_TO_SAVE: usize = $minsave;" src/config.rs

# The stand-in crates.
shim() { # NAME: a crate with src/lib.rs from stdin
	mkdir -p "shims/$1/src"
	printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\n' "$1" >"shims/$1/Cargo.toml"
	cat >"shims/$1/src/lib.rs"
}
shim rand <<'EOF'
use std::ops::Range;
use std::sync::Mutex;
static STATE: Mutex<Option<u64>> = Mutex::new(None);
fn next() -> u64 {
    let mut s = STATE.lock().unwrap();
    let x = s.get_or_insert_with(|| std::env::var("E2_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1));
    *x = x.wrapping_add(0x9e3779b97f4a7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
    z ^ (z >> 31)
}
pub trait Draw: Copy { fn draw(r: Range<Self>) -> Self; }
macro_rules! draw { ($($t:ty),*) => { $(impl Draw for $t {
    fn draw(r: Range<$t>) -> $t { let n = (r.end as i128 - r.start as i128) as u64; (r.start as i128 + (next() % n) as i128) as $t }
})* } }
draw!(i32, i64, u8, u16, u32, u64, usize);
pub struct ThreadRng;
pub trait Rng { fn random_range<T: Draw>(&mut self, r: Range<T>) -> T { T::draw(r) } }
impl Rng for ThreadRng {}
pub fn rng() -> ThreadRng { ThreadRng }
pub trait Random { fn random() -> Self; }
impl Random for u32 { fn random() -> u32 { next() as u32 } }
pub fn random<T: Random>() -> T { T::random() }
EOF
shim md5 <<'EOF'
pub struct Digest(u64);
pub fn compute<T: AsRef<[u8]>>(data: T) -> Digest {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in data.as_ref() { h = (h ^ *b as u64).wrapping_mul(0x100000001b3); }
    Digest(h)
}
impl std::fmt::LowerHex for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "{:016x}", self.0) }
}
EOF
shim dirs <<'EOF'
pub fn home_dir() -> Option<std::path::PathBuf> {
    std::env::var_os("E2_OUT").or_else(|| std::env::var_os("HOME")).map(Into::into)
}
EOF
shim log <<'EOF'
#[macro_export]
macro_rules! info { ($($t:tt)*) => {{
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs_f64();
    println!("[{:.3}] {}", t, format!($($t)*));
}} }
EOF
shim env_logger <<'EOF'
pub struct Env;
impl Env { pub fn default() -> Env { Env } pub fn default_filter_or(self, _: &str) -> Env { self } }
pub enum Target { Stdout, Stderr }
pub struct Builder;
impl Builder {
    pub fn from_env(_: Env) -> Builder { Builder }
    pub fn target(&mut self, _: Target) -> &mut Builder { self }
    pub fn format_timestamp_millis(&mut self) -> &mut Builder { self }
    pub fn init(&mut self) {}
}
EOF
shim num_cpus <<'EOF'
pub fn get() -> usize { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) }
EOF
shim thousands <<'EOF'
pub trait Separable { fn separate_with_commas(&self) -> String; }
impl<T: std::fmt::Display> Separable for T {
    fn separate_with_commas(&self) -> String {
        let s = self.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i) % 3 == 0 { out.push(','); }
            out.push(c);
        }
        out
    }
}
EOF
# The dependencies become the stand-ins (the release profile is kept).
awk '/^\[dependencies\]/{print; print "rand = { path = \"shims/rand\" }\nmd5 = { path = \"shims/md5\" }\ndirs = { path = \"shims/dirs\" }\nlog = { path = \"shims/log\" }\nenv_logger = { path = \"shims/env_logger\" }\nnum_cpus = { path = \"shims/num_cpus\" }\nthousands = { path = \"shims/thousands\" }"; skip=1; next} /^\[/{skip=0} !skip{print}' Cargo.toml >c.tmp && mv c.tmp Cargo.toml
rm -f Cargo.lock
cargo build --release --offline -q
cp target/release/rust "$race/e2peer"
cd "$root"
CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "$race/tessera" ./cmd/tessera
echo "built $race/e2peer and $race/tessera"
