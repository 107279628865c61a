//! Engines for "does any of these literals occur", side by side:
//! `cargo run --release --no-default-features --example literal_engines [-- LITERALS TEXTS…]`.
//!
//! `aho-corasick`'s DFA with its prefilter (what a `contains` set always used), the same
//! DFA without it, `regex-automata`'s lazy DFA of the escaped literals (steady state,
//! and its first pass, which builds its states), and `Grams` (`src/matcher/grams.rs`);
//! then every occurrence (what `first` and `matches` walk), by the DFA without a
//! prefilter and by `Grams`. Sets of N random 6–10-letter literals on
//! 100 random letters (a tenth of the texts hold one), as `bench/matcher.js` makes them;
//! then, given files, the literals of LITERALS (one per line, ASCII case-insensitive) on
//! each TEXTS file. What it showed is in `literal.rs` (`Chooser`) and the README.
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use regex_automata::hybrid::dfa::DFA;
use regex_automata::Input;
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = (self.0 * 1103515245 + 12345) % 2147483648;
        self.0 as f64 / 2147483648.0
    }
    fn letters(&mut self, n: usize) -> String {
        (0..n).map(|_| (b'a' + (self.next() * 26.0) as u8) as char).collect()
    }
}

fn time(texts: &[Vec<u8>], mut f: impl FnMut(&[u8]) -> bool) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut hits = 0;
    for _ in 0..7 {
        hits = 0;
        let t = Instant::now();
        for s in texts {
            hits += f(s) as usize;
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / texts.len() as f64);
    }
    (best, hits)
}

fn run(name: &str, lits: &[String], texts: &[Vec<u8>], ci: bool) {
    let ac = |pre: bool| {
        AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .ascii_case_insensitive(ci)
            .kind(Some(AhoCorasickKind::DFA))
            .prefilter(pre)
            .build(lits)
            .unwrap()
    };
    let (a1, a0) = (ac(true), ac(false));
    let srcs: Vec<String> = lits
        .iter()
        .map(|l| if ci { format!("(?i-u:{})", regex_syntax::escape(l)) } else { regex_syntax::escape(l) })
        .collect();
    let dfa = DFA::builder()
        .configure(DFA::config().match_kind(regex_automata::MatchKind::LeftmostFirst).cache_capacity(32 << 20))
        .syntax(regex_automata::util::syntax::Config::new().utf8(false))
        .thompson(
            regex_automata::nfa::thompson::Config::new()
                .which_captures(regex_automata::nfa::thompson::WhichCaptures::None),
        )
        .build_many(&srcs)
        .unwrap();
    let mut cache = dfa.create_cache();
    let t0 = Instant::now();
    let first: usize = texts
        .iter()
        .map(|s| dfa.try_search_fwd(&mut cache, &Input::new(s).earliest(true)).unwrap().is_some() as usize)
        .sum();
    let first_ns = t0.elapsed().as_secs_f64() * 1e9 / texts.len() as f64;
    let indexed: Vec<(String, u32)> = lits.iter().enumerate().map(|(i, l)| (l.clone(), i as u32)).collect();
    let set = qr_native::matcher::literal::ContainsSet::new(&indexed, ci).unwrap();
    let chosen = time(texts, |s| set.is_match(s));
    let pre = time(texts, |s| a1.is_match(s));
    let nopre = time(texts, |s| a0.is_match(s));
    let lazy = time(texts, |s| dfa.try_search_fwd(&mut cache, &Input::new(s).earliest(true)).unwrap().is_some());
    let (g, rest) = qr_native::matcher::grams::Grams::new(&indexed, ci).expect("literals of 4 bytes or more");
    let gram = time(texts, |s| g.is_match(s));
    // The lowest pattern index among every occurrence, as `first` needs.
    let ac_all = time(texts, |s| a0.find_overlapping_iter(s).map(|m| m.pattern().as_u32()).min().is_some());
    let gram_all = time(texts, |s| {
        let mut best = u32::MAX;
        g.try_each_occurrence(s, |p, _, _| {
            best = best.min(p);
            true
        });
        best != u32::MAX
    });
    println!(
        "{name}: AC+pre {:.0} | AC nopre {:.0} | chosen {:.0} | lazy {:.0} (first pass {:.0}) | grams {:.0} ({} left to Aho–Corasick, not timed) | every occurrence: AC {:.0}, grams {:.0} | hits {} {} {} {} {} {first}",
        pre.0, nopre.0, chosen.0, lazy.0, first_ns, gram.0, rest.len(), ac_all.0, gram_all.0, pre.1, nopre.1, chosen.1, lazy.1, gram.1
    );
}

fn main() {
    let mut rng = Rng(16);
    for n in [2usize, 3, 5, 10, 16, 20, 50, 100, 300, 1500, 5000] {
        for k in 0..3 {
            let lits: Vec<String> = (0..n)
                .map(|_| {
                    let l = 6 + (rng.next() * 5.0) as usize;
                    rng.letters(l)
                })
                .collect();
            let texts: Vec<Vec<u8>> = (0..1000)
                .map(|i| {
                    let mut t = rng.letters(100).into_bytes();
                    if i % 10 == 0 {
                        let l = lits[i % n].as_bytes();
                        let at = (rng.next() * (100 - l.len()) as f64) as usize;
                        t[at..at + l.len()].copy_from_slice(l);
                    }
                    t
                })
                .collect();
            run(&format!("N={n} set {k}"), &lits, &texts, false);
        }
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [literals, files @ ..] = args.as_slice() {
        let lits: Vec<String> = std::fs::read_to_string(literals).unwrap().lines().map(String::from).collect();
        for f in files {
            let texts: Vec<Vec<u8>> =
                std::fs::read_to_string(f).unwrap().lines().map(|l| l.as_bytes().to_vec()).collect();
            run(&format!("{} literals on {f}", lits.len()), &lits, &texts, true);
        }
    }
}
