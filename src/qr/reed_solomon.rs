//! Reed–Solomon error-correction codewords over GF(256) with the QR polynomial 0x11D.

use std::borrow::Cow;
use std::sync::OnceLock;

struct Galois {
    exp: [u8; 512],
    log: [u8; 256],
}

fn galois() -> &'static Galois {
    static TABLES: OnceLock<Galois> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut exp = [0u8; 512];
        let mut log = [0u8; 256];
        let mut x: u16 = 1;
        for (i, e) in exp.iter_mut().take(255).enumerate() {
            *e = x as u8;
            log[x as usize] = i as u8;
            x <<= 1;
            if x & 0x100 != 0 {
                x ^= 0x11D;
            }
        }
        for i in 255..512 {
            exp[i] = exp[i - 255];
        }
        Galois { exp, log }
    })
}

fn mul(g: &Galois, a: u8, b: u8) -> u8 {
    if a == 0 || b == 0 {
        0
    } else {
        g.exp[g.log[a as usize] as usize + g.log[b as usize] as usize]
    }
}

/// Generator polynomial of `degree`, highest coefficient (always 1) first.
fn generator(degree: usize) -> Vec<u8> {
    let g = galois();
    let mut poly = vec![1u8];
    for i in 0..degree {
        let mut next = vec![0u8; poly.len() + 1];
        for (j, &c) in poly.iter().enumerate() {
            next[j] ^= c;
            next[j + 1] ^= mul(g, c, g.exp[i]);
        }
        poly = next;
    }
    poly
}

/// Most error-correction codewords a QR block has.
const MAX_EC: usize = 30;

/// The generator of `degree` in log form, without its leading 1: built once per degree and
/// kept (each build is `degree` polynomial products; every block of every encode needs one).
fn generator_log(degree: usize) -> Cow<'static, [u8]> {
    static GENERATORS: [OnceLock<Vec<u8>>; MAX_EC + 1] = [const { OnceLock::new() }; MAX_EC + 1];
    let g = galois();
    let build = || generator(degree)[1..].iter().map(|&c| g.log[c as usize]).collect::<Vec<u8>>();
    match GENERATORS.get(degree) {
        Some(cell) => Cow::Borrowed(cell.get_or_init(build)),
        // Not a QR degree: built for this call only.
        None => Cow::Owned(build()),
    }
}

/// Computes `ec_len` error-correction codewords of `data` into `out` (cleared first).
/// Cost: `data.len() * ec_len` table look-ups.
pub fn encode_into(data: &[u8], ec_len: usize, out: &mut Vec<u8>) {
    let g = galois();
    // Log form of the generator skips a table look-up per product in the hot loop.
    let gen_log = generator_log(ec_len);
    out.clear();
    out.resize(ec_len, 0);
    for &byte in data {
        let factor = byte ^ out[0];
        out.rotate_left(1);
        out[ec_len - 1] = 0;
        if factor != 0 {
            let lf = g.log[factor as usize] as usize;
            for (o, &gl) in out.iter_mut().zip(gen_log.iter()) {
                *o ^= g.exp[lf + gl as usize];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_worked_example_of_the_standard() {
        // ISO/IEC 18004 Annex I: "01234567" at 1-M.
        let data = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11];
        let mut ec = Vec::new();
        encode_into(&data, 10, &mut ec);
        assert_eq!(ec, vec![0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55]);
    }
}
