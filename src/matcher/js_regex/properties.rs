//! `\p{…}` as ECMAScript reads it: a lone name is a General_Category value or a binary
//! property, `Name=Value` one of General_Category, Script and Script_Extensions with one of
//! its values, each as written in the specification's tables or one of their aliases, case
//! and underscores exactly (`\p{ascii}`, `\p{Is_Latin}` and `\p{Hyphen}` are `SyntaxError`s
//! in V8, and not patterns here). The names and sets are `unicode_tables`, generated from
//! npm's data for one Unicode version ([`VERSION`]), the one V8 in current Node reads.

use super::charset::CharSet;
use super::unicode_tables::{BINARY, NAMES, RANGES, SETS, VALUES};
use std::sync::OnceLock;

pub use super::unicode_tables::VERSION;

/// The code points `\p{text}` names, or `None` when ECMAScript has no such property.
pub fn lookup(text: &str) -> Option<CharSet> {
    let key = match text.split_once('=') {
        Some((name, value)) => {
            let property = canonical_name(name).filter(|p| !BINARY.contains(p))?;
            format!("{property}/{}", canonical_value(property, value)?)
        }
        None => match canonical_value("General_Category", text) {
            Some(value) => format!("General_Category/{value}"),
            None => format!("Binary_Property/{}", canonical_name(text).filter(|p| BINARY.contains(p))?),
        },
    };
    Some(set_of(&key))
}

/// The canonical name of the property `name` spells.
fn canonical_name(name: &str) -> Option<&'static str> {
    NAMES.binary_search_by(|(written, _)| written.cmp(&name)).ok().map(|i| NAMES[i].1)
}

/// The canonical value of `property` that `value` spells.
fn canonical_value(property: &str, value: &str) -> Option<&'static str> {
    VALUES.binary_search_by(|(p, written, _)| (*p, *written).cmp(&(property, value))).ok().map(|i| VALUES[i].2)
}

/// The set of "Kind/Name".
fn set_of(key: &str) -> CharSet {
    match SETS.binary_search_by(|(k, ..)| k.cmp(&key)) {
        Ok(i) => {
            let (_, first, count) = SETS[i];
            CharSet::from_ranges((first..first + count).map(|j| (RANGES[2 * j as usize], RANGES[2 * j as usize + 1])))
        }
        Err(_) => CharSet::empty(),
    }
}

fn cached(cell: &'static OnceLock<CharSet>, name: &str) -> &'static CharSet {
    cell.get_or_init(|| lookup(name).unwrap_or_else(CharSet::empty))
}

/// ECMAScript's IdentifierStartChar, for group names: ID_Start, `$` or `_`.
pub fn is_identifier_start(c: u32) -> bool {
    static ID_START: OnceLock<CharSet> = OnceLock::new();
    c == '$' as u32 || c == '_' as u32 || cached(&ID_START, "ID_Start").contains(c)
}

/// ECMAScript's IdentifierPartChar: ID_Continue, `$`, ZWNJ or ZWJ.
pub fn is_identifier_part(c: u32) -> bool {
    static ID_CONTINUE: OnceLock<CharSet> = OnceLock::new();
    c == '$' as u32 || c == 0x200C || c == 0x200D || cached(&ID_CONTINUE, "ID_Continue").contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(text: &str, cp: u32) -> bool {
        lookup(text).unwrap().contains(cp)
    }

    #[test]
    fn the_tables_are_sorted_for_binary_search() {
        assert!(NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(VALUES.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
        assert!(SETS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn names_and_values_as_ecmascript_spells_them() {
        for ok in [
            "L",
            "Letter",
            "Lu",
            "gc=Lu",
            "General_Category=Uppercase_Letter",
            "sc=Latn",
            "Script=Latin",
            "scx=Grek",
            "ASCII",
            "Any",
            "Assigned",
            "Alpha",
            "Alphabetic",
            "gc=Zl",
            "gc=Zp",
            "gc=Cs",
            "Script=Unknown",
            "sc=Zzzz",
            "cntrl",
            "RI",
        ] {
            assert!(lookup(ok).is_some(), "{ok}");
        }
        for bad in [
            "ANY",
            "ascii",
            "lowercase",
            "gc=uppercaseletter",
            "IsScript=Adlam",
            "Hyphen",
            "Other_Math",
            "Latin",
            "Zzzz",
            "Script",
            "gc",
            "ASCII=Y",
            "Alpha=Yes",
            "sc=latin",
            "Script=Latin ",
            " L",
            "L=",
            "=L",
            "sc==Latn",
            "Block=Basic_Latin",
            "Lu\u{0}",
            "sc=Hrkt",
        ] {
            assert!(lookup(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn sets_are_the_version_we_say() {
        assert_eq!(VERSION, "17.0.0");
        // U+10940 SIDETIC LETTER N01, new in Unicode 17.0.
        assert!(has("L", 0x10940) && has("Script=Sidetic", 0x10940));
        assert!(has("gc=Cs", 0xD800) && !has("gc=Cs", 0xE000));
        assert!(has("Any", 0x10FFFF) && !has("ASCII", 0x80) && has("ASCII", 0x7F));
        // Script_Extensions is wider than Script: U+3001 (、) is Common, and Han among others.
        assert!(has("scx=Han", 0x3001) && !has("sc=Han", 0x3001));
    }
}
