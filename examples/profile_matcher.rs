//! A fixed matching workload for `valgrind --tool=callgrind` or timing:
//! `cargo run --release --no-default-features --example profile_matcher -- PATTERNS TEXTS [test|first|matches]`
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
    let rounds = 20;
    let t = Instant::now();
    let mut hits = 0usize;
    for _ in 0..rounds {
        for text in &texts {
            hits += match op {
                "test" => m.test(text.as_bytes()) as usize,
                "matches" => m.matches(text.as_bytes()).len(),
                _ => m.first(text.as_bytes()).is_some() as usize,
            };
        }
    }
    let per = t.elapsed().as_secs_f64() * 1e9 / (rounds * texts.len()) as f64;
    println!("{op}: {per:.0} ns per text over {} texts ({hits} hits)", texts.len());
}
