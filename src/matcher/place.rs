//! Where a literal must sit in the text: shared by the pattern classifier (`pattern`) and
//! the JS-regex translator (`js_regex`), which finds literals inside regexes.

/// Where a literal must sit in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Exact,
    Prefix,
    Suffix,
    Contains,
}
