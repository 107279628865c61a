//! A fixed matching workload for `valgrind --tool=callgrind` or timing:
//! `cargo run --release --no-default-features --example profile_matcher -- PATTERNS TEXTS [test|first|matches|findAll]`
//! with one pattern (JS regex syntax) per line in PATTERNS and one text per line in TEXTS;
//! `CI_PATTERNS=1` makes them case-insensitive (as isbot compiles its list).

use qr_native::matcher::{Kind, Matcher, PatternSpec, Syntax};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let read = |i: usize| std::fs::read_to_string(&args[i]).unwrap_or_default();
    let specs: Vec<PatternSpec> = read(1)
        .lines()
        .map(|p| PatternSpec {
            pattern: p.to_string(),
            kind: Kind::Regex,
            case_insensitive: std::env::var_os("CI_PATTERNS").is_some(),
            syntax: Syntax::Js,
            glob: None,
        })
        .collect();
    let texts = read(2);
    let texts: Vec<&str> = texts.lines().collect();
    let op = args.get(3).map(String::as_str).unwrap_or("first");
    let m = Matcher::new(&specs).expect("patterns compile");
    // `WARM=1`: the first half of the texts warms the caches, untimed; the rounds run on the
    // second half, so the first round is texts never seen but a cache already in use.
    let texts = if std::env::var_os("WARM").is_some() {
        let (warm, rest) = texts.split_at(texts.len() / 2);
        for text in warm {
            m.test(text.as_bytes());
            m.first(text.as_bytes());
        }
        rest
    } else {
        &texts[..]
    };
    let rounds = 20;
    let mut hits = 0usize;
    // The first round fills the lazy DFAs' caches; the best later round is the steady state.
    let mut first = 0.0;
    let mut best = f64::MAX;
    for round in 0..rounds {
        let t = Instant::now();
        for text in texts {
            hits += match op {
                "test" => m.test(text.as_bytes()) as usize,
                "matches" => m.matches(text.as_bytes()).len(),
                "findAll" => m.find_all(text.as_bytes()).map_or(0, |spans| spans.len()),
                _ => m.first(text.as_bytes()).is_some() as usize,
            };
        }
        let per = t.elapsed().as_secs_f64() * 1e9 / texts.len() as f64;
        if round == 0 {
            first = per;
        } else {
            best = best.min(per);
        }
    }
    println!("{op}: {best:.0} ns per text over {} texts, {first:.0} in the first round ({hits} hits)", texts.len());
}
