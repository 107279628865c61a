//! Text output, byte-identical to `qrcode`'s `toString` types `utf8` and `terminal`.

use super::render::Colour;
use super::QrMatrix;

fn dark_at(matrix: &QrMatrix, row: usize, col: usize) -> bool {
    row < matrix.size && matrix.is_dark(row, col)
}

/// Two module rows per line with half blocks. Inverted blocks when dark is white or light
/// is black, as qrcode decides it (comparing the `#rrggbb` text as given).
/// Odd margins use `margin / 2` blank lines, rounded down.
pub fn utf8(matrix: &QrMatrix, margin: u32, dark: &Colour, light: &Colour) -> String {
    let inverted = dark.hex_str() == "#ffffff" || light.hex_str() == "#000000";
    // Blocks for (top, bottom) = (light, light), (light, dark), (dark, dark), (dark, light).
    let [ww, wb, bb, bw] = if inverted { ["█", "▀", " ", "▄"] } else { [" ", "▄", "█", "▀"] };
    let size = matrix.size;
    let margin = margin as usize;
    let mut out = String::with_capacity((size + 2 * margin + 1) * (size / 2 + margin + 1) * 3);
    let blank_line = ww.repeat(size + 2 * margin) + "\n";
    let h_margin = blank_line.repeat(margin / 2);
    let v_margin = ww.repeat(margin);
    out.push_str(&h_margin);
    for row in (0..size).step_by(2) {
        out.push_str(&v_margin);
        for col in 0..size {
            let block = match (dark_at(matrix, row, col), dark_at(matrix, row + 1, col)) {
                (true, true) => bb,
                (true, false) => bw,
                (false, true) => wb,
                (false, false) => ww,
            };
            out.push_str(block);
        }
        out.push_str(&v_margin);
        out.push('\n');
    }
    out.push_str(h_margin.strip_suffix('\n').unwrap_or(&h_margin));
    out
}

/// ANSI colours, two spaces per module, with a one-module border (qrcode's `terminal`).
pub fn terminal(matrix: &QrMatrix) -> String {
    const BLACK: &str = "\x1b[40m  \x1b[0m";
    const WHITE: &str = "\x1b[47m  \x1b[0m";
    let size = matrix.size;
    let mut out = String::with_capacity((size + 2) * (size + 2) * BLACK.len() + size + 2);
    let h_margin = WHITE.repeat(size + 2);
    out.push_str(&h_margin);
    out.push('\n');
    for row in 0..size {
        out.push_str(WHITE);
        for col in 0..size {
            out.push_str(if matrix.is_dark(row, col) { BLACK } else { WHITE });
        }
        out.push_str(WHITE);
        out.push('\n');
    }
    out.push_str(&h_margin);
    out.push('\n');
    out
}

/// Half-height ANSI output (qrcode's `terminal` with `small: true`), optionally inverted.
pub fn terminal_small(matrix: &QrMatrix, inverse: bool) -> String {
    const RESET: &str = "\x1b[0m";
    const FG_WHITE: &str = "\x1b[37m";
    const FG_BLACK: &str = "\x1b[30m";
    let line_setup = if inverse { "\x1b[40m\x1b[37m" } else { "\x1b[47m\x1b[30m" };
    let (white, black) = if inverse { (FG_BLACK, FG_WHITE) } else { (FG_WHITE, FG_BLACK) };
    let size = matrix.size as isize;
    // 0 = outside (transparent), 1 = light, 2 = dark.
    let code = |x: isize, y: isize| -> u8 {
        if x > size || y > size || y < -1 || x < -1 {
            0
        } else if x >= size || y >= size || y < 0 || x < 0 {
            1
        } else if matrix.is_dark(y as usize, x as usize) {
            2
        } else {
            1
        }
    };
    let mut out = String::from(line_setup);
    let cell = |out: &mut String, top: u8, bottom: u8| match (top, bottom) {
        (0, 0) => {
            out.push_str(RESET);
            out.push(' ');
            out.push_str(line_setup);
        }
        (0, b) | (b, 0) => {
            out.push_str(RESET);
            out.push_str(if b == 1 { white } else { black });
            out.push_str(if top == 0 { "▄" } else { "▀" });
            out.push_str(line_setup);
        }
        (1, 1) => out.push(' '),
        (1, _) => out.push('▄'),
        (_, 1) => out.push('▀'),
        _ => out.push('█'),
    };
    let mut y = -1;
    while y < size + 1 {
        for x in -1..size {
            cell(&mut out, code(x, y), code(x, y + 1));
        }
        cell(&mut out, code(size, y), code(size, y + 1));
        out.push_str(RESET);
        out.push('\n');
        out.push_str(line_setup);
        y += 2;
    }
    out.push_str(RESET);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qr::{encode, EncodeOptions, QrInput};

    #[test]
    fn utf8_has_one_line_per_two_rows_plus_margins() {
        let m = encode(&QrInput::Text("A"), &EncodeOptions::default()).unwrap();
        let text = utf8(&m, 4, &Colour::BLACK, &Colour::WHITE);
        assert_eq!(text.lines().count(), 2 + 11 + 2);
        assert!(text.lines().all(|l| l.chars().count() == 29));
    }

    #[test]
    fn terminal_draws_two_spaces_per_module() {
        let m = encode(&QrInput::Text("A"), &EncodeOptions::default()).unwrap();
        assert_eq!(terminal(&m).lines().count(), 23);
    }
}
