//! Why `regex_set.rs` raises the RegexSet limits: the same patterns as one set with the
//! crate's default limits and with ours, timed on the same texts.
//! `cargo run --release --no-default-features --example regexset_limits -- PATTERNS TEXTS`
//! (one pattern per line, one text per line). Prints one JSON line.

use qr_native::matcher::regex_config::{DFA_CACHE, SET_SIZE};
use regex::bytes::RegexSetBuilder;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let read = |i: usize| std::fs::read_to_string(&args[i]).unwrap_or_default();
    let patterns = read(1);
    let patterns: Vec<&str> = patterns.lines().collect();
    let texts = read(2);
    let texts: Vec<&str> = texts.lines().collect();
    let time = |set: &regex::bytes::RegexSet, all: bool| {
        let rounds = 3;
        let t = Instant::now();
        let mut hits = 0;
        for _ in 0..rounds {
            for text in &texts {
                hits += if all {
                    set.matches(text.as_bytes()).iter().count()
                } else {
                    set.is_match(text.as_bytes()) as usize
                };
            }
        }
        (t.elapsed().as_secs_f64() * 1e9 / (rounds * texts.len()) as f64, hits)
    };
    let default = RegexSetBuilder::new(&patterns).build().expect("patterns compile with default limits");
    let raised = RegexSetBuilder::new(&patterns)
        .size_limit(SET_SIZE)
        .dfa_size_limit(DFA_CACHE)
        .build()
        .expect("patterns compile");
    // Interleave so machine noise falls on both alike.
    let (mut d, mut r, mut di, mut ri) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..3 {
        di = di.min(time(&default, false).0);
        ri = ri.min(time(&raised, false).0);
        d = d.min(time(&default, true).0);
        r = r.min(time(&raised, true).0);
    }
    println!(
        "{{\"patterns\":{},\"texts\":{},\"is_match_ns\":{{\"default\":{di:.0},\"raised\":{ri:.0}}},\"matches_ns\":{{\"default\":{d:.0},\"raised\":{r:.0}}}}}",
        patterns.len(),
        texts.len()
    );
}
