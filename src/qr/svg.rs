//! SVG output, byte-identical to `qrcode`'s `toString(…, { type: 'svg' })`: one background
//! path and one stroked path of horizontal runs of dark modules.

use super::render::Colour;
use super::QrMatrix;
use std::fmt::Write;

/// `attr="#rrggbb"`, plus `attr-opacity=".xx"` when the colour is not opaque.
fn colour_attr(out: &mut String, colour: &Colour, attr: &str) {
    let _ = write!(out, "{attr}=\"{}\"", colour.hex_str());
    if colour.a < 255 {
        // qrcode prints (a / 255).toFixed(2) without its leading zero.
        let alpha = format!("{:.2}", colour.a as f64 / 255.0);
        let _ = write!(out, " {attr}-opacity=\"{}\"", &alpha[1..]);
    }
}

/// The path data: for each run of dark modules, a move to its start and a horizontal line.
fn path_data(out: &mut String, matrix: &QrMatrix, margin: u32) {
    let size = matrix.size;
    let data = &matrix.modules;
    let mut move_by = 0usize;
    let mut new_row = false;
    let mut run = 0usize;
    for (i, &m) in data.iter().enumerate() {
        let col = i % size;
        let row = i / size;
        if col == 0 && !new_row {
            new_row = true;
        }
        if m == 1 {
            run += 1;
            if !(i > 0 && col > 0 && data[i - 1] == 1) {
                if new_row {
                    let _ = write!(out, "M{} {}.5", col + margin as usize, row + margin as usize);
                } else {
                    let _ = write!(out, "m{move_by} 0");
                }
                move_by = 0;
                new_row = false;
            }
            if !(col + 1 < size && data[i + 1] == 1) {
                let _ = write!(out, "h{run}");
                run = 0;
            }
        } else {
            move_by += 1;
        }
    }
}

/// Renders `matrix` as an SVG document. `width` (from 21) adds `width`/`height` attributes.
/// Cost: one pass over the modules.
pub fn write(matrix: &QrMatrix, margin: u32, width: Option<f64>, dark: &Colour, light: &Colour) -> String {
    let side = matrix.size + 2 * margin as usize;
    let mut out = String::with_capacity(256 + matrix.modules.len());
    out.push_str("<svg xmlns=\"http://www.w3.org/2000/svg\" ");
    if let Some(w) = width.filter(|&w| w >= 21.0) {
        // As JavaScript prints the number: no decimals for whole numbers.
        let w = if w.fract() == 0.0 { format!("{}", w as u64) } else { format!("{w}") };
        let _ = write!(out, "width=\"{w}\" height=\"{w}\" ");
    }
    let _ = write!(out, "viewBox=\"0 0 {side} {side}\" shape-rendering=\"crispEdges\">");
    if light.a != 0 {
        out.push_str("<path ");
        colour_attr(&mut out, light, "fill");
        let _ = write!(out, " d=\"M0 0h{side}v{side}H0z\"/>");
    }
    out.push_str("<path ");
    colour_attr(&mut out, dark, "stroke");
    out.push_str(" d=\"");
    path_data(&mut out, matrix, margin);
    out.push_str("\"/></svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qr::{encode, EncodeOptions, QrInput};

    #[test]
    fn starts_with_the_first_finder_row() {
        let m = encode(&QrInput::Text("A"), &EncodeOptions::default()).unwrap();
        let svg = write(&m, 4, None, &Colour::BLACK, &Colour::WHITE);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 29 29\""));
        assert!(svg.contains("d=\"M4 4.5h7"), "{svg}");
        assert!(svg.ends_with("</svg>\n"));
    }

    #[test]
    fn translucent_colours_get_an_opacity_attribute() {
        let m = encode(&QrInput::Text("A"), &EncodeOptions::default()).unwrap();
        let dark = Colour::parse("#00000080").unwrap();
        let svg = write(&m, 4, None, &dark, &Colour::WHITE);
        assert!(svg.contains("stroke=\"#000000\" stroke-opacity=\".50\""));
    }
}
