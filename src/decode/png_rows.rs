//! The common PNG's pixels, read faster than the `png` crate reads them: its image data
//! inflated by libdeflate in one call, then its rows unfiltered in place.
//!
//! Chosen side by side on the bench's large noisy grey images (`bench/decode-images`,
//! SmallInLarge, most rows Average-filtered): libdeflate inflated them faster than `fdeflate`
//! (the `png` crate's inflater), zlib-rs and miniz_oxide, and `zune-png` was slower on the
//! whole file. Unfiltering costs the same either way (the Average filter is a chain through
//! every byte of a row).
//! The `png` crate does not export its unfiltering, so it is written out here: the four
//! filters of the PNG specification (section 9), one byte at a time.
//!
//! Only the plain case is read here: one image, not interlaced, 8 bits a channel, grey, grey
//! and alpha, RGB or RGBA, no `tRNS` chunk; and a palette (1, 2, 4 or 8 bits an index, with or
//! without `tRNS`) or grey of 1, 2 or 4 bits, unpacked to a byte a pixel (palette images are
//! how most generated codes are stored, and the `png` crate expands them to RGB first). Anything else, and anything irregular in the plain
//! case (a chunk past the end, a bad CRC, a stream that is short, long or corrupt), is left
//! to the `png` crate, which reads it or says what is wrong: its answers stay the answers.

use png::{BitDepth, ColorType, Info};

/// The unfiltered rows of a plain PNG (`width × channels` bytes each, no filter bytes) and
/// their colour type; a palette image or grey of under 8 bits comes as 8-bit grey, each
/// sample through the table `sample_grey` makes of the header with `luma_over_white`. `None` when the file is
/// not plain or not regular: the `png` crate is to read it. `info` is the header the `png`
/// crate read (sizes already checked against the budget).
pub fn read(bytes: &[u8], info: &Info, luma_over_white: impl Fn(u8, u8, u8, u8) -> u8) -> Option<(Vec<u8>, ColorType)> {
    let depth = match info.bit_depth {
        BitDepth::One => 1,
        BitDepth::Two => 2,
        BitDepth::Four => 4,
        BitDepth::Eight => 8,
        BitDepth::Sixteen => return None,
    };
    let (channels, packed) = match (info.color_type, depth) {
        (ColorType::Grayscale, 8) => (1, false),
        (ColorType::GrayscaleAlpha, 8) => (2, false),
        (ColorType::Rgb, 8) => (3, false),
        (ColorType::Rgba, 8) => (4, false),
        (ColorType::Grayscale | ColorType::Indexed, _) => (1, true),
        _ => return None,
    };
    let transparent_grey = info.trns.is_some() && info.color_type != ColorType::Indexed;
    if info.interlaced || transparent_grey || info.animation_control.is_some() {
        return None;
    }
    let width = usize::try_from(info.width).ok()?;
    let stride = if packed { width.checked_mul(depth)?.div_ceil(8) } else { width.checked_mul(channels)? };
    let height = usize::try_from(info.height).ok()?;
    let filtered_len = stride.checked_add(1)?.checked_mul(height)?;
    let data = image_data(bytes)?;
    let mut rows = vec![0u8; filtered_len];
    // The whole stream must fill the rows exactly; a short one answers fewer bytes, a long
    // one an error (no room).
    let n = libdeflater::Decompressor::new().zlib_decompress(&data, &mut rows).ok()?;
    if n != filtered_len {
        return None;
    }
    unfilter(&mut rows, stride, channels)?;
    rows.truncate(stride * height);
    if !packed {
        return Some((rows, info.color_type));
    }
    let grey = &sample_grey(info, luma_over_white);
    let pixels = match depth {
        1 => unpack::<8>(&rows, width, stride, grey),
        2 => unpack::<4>(&rows, width, stride, grey),
        4 => unpack::<2>(&rows, width, stride, grey),
        _ => rows.iter().map(|&s| grey[s as usize]).collect(),
    };
    Some((pixels, ColorType::Grayscale))
}

/// What each sample of a palette image or of grey under 8 bits stands for as 8-bit grey, as
/// the `png` crate expands it (to RGB(A) or 8-bit grey) and `image` makes grey of that: a
/// palette entry's luma over white by its `tRNS` alpha (a `tRNS` longer than the palette
/// ignored, an index past the palette black), grey scaled to 0–255.
fn sample_grey(info: &Info, luma_over_white: impl Fn(u8, u8, u8, u8) -> u8) -> [u8; 256] {
    let mut grey = [0u8; 256];
    match info.color_type {
        ColorType::Indexed => {
            let palette = info.palette.as_deref().unwrap_or(&[]);
            let alpha = info.trns.as_deref().filter(|t| t.len() <= palette.len() / 3).unwrap_or(&[]);
            for (i, rgb) in palette.chunks_exact(3).enumerate().take(256) {
                grey[i] = luma_over_white(rgb[0], rgb[1], rgb[2], alpha.get(i).copied().unwrap_or(255));
            }
        }
        _ => {
            let top = (1u16 << (info.bit_depth as u8).min(8)) - 1;
            for (i, g) in grey.iter_mut().enumerate().take(top as usize + 1) {
                *g = (i as u16 * (255 / top)) as u8;
            }
        }
    }
    grey
}

/// Rows of packed samples (`N` a byte, the first in the high bits; `stride` bytes a row) as
/// one byte a pixel through `grey`: each byte's `N` pixels looked up at once.
fn unpack<const N: usize>(rows: &[u8], width: usize, stride: usize, grey: &[u8; 256]) -> Vec<u8> {
    let depth = 8 / N;
    let mut table = [[0u8; N]; 256];
    for (byte, pixels) in table.iter_mut().enumerate() {
        for (k, p) in pixels.iter_mut().enumerate() {
            *p = grey[(byte >> (8 - depth * (k + 1))) & ((1 << depth) - 1)];
        }
    }
    let mut out = vec![0u8; width * (rows.len() / stride.max(1))];
    for (row, line) in rows.chunks_exact(stride).zip(out.chunks_exact_mut(width.max(1))) {
        let mut whole = line.chunks_exact_mut(N);
        for (pixels, &byte) in whole.by_ref().zip(row) {
            pixels.copy_from_slice(&table[byte as usize]);
        }
        // The row's last byte, when it holds fewer than `N` pixels (the rest is padding).
        let rest = whole.into_remainder();
        let n = rest.len();
        if n > 0 {
            rest.copy_from_slice(&table[row[stride - 1] as usize][..n]);
        }
    }
    out
}

/// The `IDAT` chunks' data, joined (borrowed when there is one chunk); `None` if a chunk
/// runs past the end of the file or fails its CRC, or there is none.
fn image_data(bytes: &[u8]) -> Option<std::borrow::Cow<'_, [u8]>> {
    let mut at = 8; // the signature, checked by the `png` crate
    let mut parts: Vec<&[u8]> = Vec::new();
    while let Some(head) = bytes.get(at..at + 8) {
        let len = u32::from_be_bytes(head[..4].try_into().ok()?) as usize;
        let kind = &head[4..8];
        let end = at.checked_add(12)?.checked_add(len)?;
        let chunk = bytes.get(at + 4..end)?; // type, data, CRC
        if kind == b"IDAT" {
            let (typed, crc) = chunk.split_at(4 + len);
            if libdeflater::crc32(typed) != u32::from_be_bytes(crc.try_into().ok()?) {
                return None;
            }
            parts.push(&typed[4..]);
        } else if !parts.is_empty() || kind == b"IEND" {
            break; // the image data is one run of chunks
        }
        at = end;
    }
    match parts.as_slice() {
        [] => None,
        [one] => Some((*one).into()),
        _ => Some(parts.concat().into()),
    }
}

/// Undoes each row's filter in place, and moves the rows down over the filter bytes: row
/// `y`, at `y × (stride + 1) + 1`, ends at `y × stride`. `None` for an unknown filter.
fn unfilter(rows: &mut [u8], stride: usize, bpp: usize) -> Option<()> {
    let height = rows.len() / (stride + 1);
    for y in 0..height {
        let from = y * (stride + 1);
        let filter = rows[from];
        rows.copy_within(from + 1..from + 1 + stride, y * stride);
        let (above, here) = rows.split_at_mut(y * stride);
        let row = &mut here[..stride];
        let up = if y == 0 { None } else { Some(&above[(y - 1) * stride..]) };
        match bpp {
            1 => unfilter_row::<1>(filter, row, up),
            2 => unfilter_row::<2>(filter, row, up),
            3 => unfilter_row::<3>(filter, row, up),
            _ => unfilter_row::<4>(filter, row, up),
        }?;
    }
    Some(())
}

/// One row's filter undone, pixel by pixel (`B` bytes each), the pixel to the left (and the
/// one above it) carried in registers: read back from the row, each byte waited on the store
/// before it, and the Average filter's chain through a row was several times slower
/// (`perf annotate`).
fn unfilter_row<const B: usize>(filter: u8, row: &mut [u8], up: Option<&[u8]>) -> Option<()> {
    let pixels = row.chunks_exact_mut(B);
    let (mut left, mut up_left) = ([0u8; B], [0u8; B]);
    match (filter, up) {
        (0, _) | (2, None) => {}
        // Paeth with nothing above predicts the left pixel, as Sub does.
        (1, _) | (4, None) => {
            for px in pixels {
                for i in 0..B {
                    px[i] = px[i].wrapping_add(left[i]);
                    left[i] = px[i];
                }
            }
        }
        (2, Some(up)) => {
            for (r, &b) in row.iter_mut().zip(up) {
                *r = r.wrapping_add(b);
            }
        }
        (3, None) => {
            for px in pixels {
                for i in 0..B {
                    px[i] = px[i].wrapping_add(left[i] >> 1);
                    left[i] = px[i];
                }
            }
        }
        (3, Some(up)) => {
            for (px, above) in pixels.zip(up.chunks_exact(B)) {
                for i in 0..B {
                    px[i] = px[i].wrapping_add(((left[i] as u16 + above[i] as u16) >> 1) as u8);
                    left[i] = px[i];
                }
            }
        }
        (4, Some(up)) => {
            for (px, above) in pixels.zip(up.chunks_exact(B)) {
                for i in 0..B {
                    px[i] = px[i].wrapping_add(paeth(left[i], above[i], up_left[i]));
                    left[i] = px[i];
                    up_left[i] = above[i];
                }
            }
        }
        _ => return None,
    }
    Some(())
}

/// The PNG specification's Paeth predictor: of left, above and upper left, the one nearest
/// `left + above − upper left`, in that order on ties.
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (ia, ib, ic) = (a as i16, b as i16, c as i16);
    let p = ia + ib - ic;
    let (pa, pb, pc) = ((p - ia).abs(), (p - ib).abs(), (p - ic).abs());
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG of `pixels` (`channels` bytes a pixel) written by the `png` crate with `filter`.
    fn encode(pixels: &[u8], width: u32, height: u32, color: ColorType, filter: png::Filter) -> Vec<u8> {
        let mut out = Vec::new();
        let mut e = png::Encoder::new(&mut out, width, height);
        e.set_color(color);
        e.set_depth(BitDepth::Eight);
        e.set_filter(filter);
        let mut w = e.write_header().expect("header");
        w.write_image_data(pixels).expect("data");
        w.finish().expect("finished");
        out
    }

    /// The `png` crate's own reading, and its header.
    fn theirs(file: &[u8]) -> (Vec<u8>, Info<'static>) {
        let mut r = png::Decoder::new(std::io::Cursor::new(file)).read_info().expect("a PNG");
        let mut buf = vec![0; r.output_buffer_size().expect("sized")];
        let out = r.next_frame(&mut buf).expect("a frame");
        buf.truncate(out.buffer_size());
        (buf, r.info().clone())
    }

    /// Runs and gradients as well as noise, so every filter has work to do.
    fn noise(seed: u64, n: usize) -> Vec<u8> {
        let mut bytes = crate::decode::noise(seed, n);
        for (i, b) in bytes.iter_mut().enumerate().filter(|(i, _)| i % 7 < 3) {
            *b = (i / 5) as u8;
        }
        bytes
    }

    #[test]
    fn every_filter_and_colour_reads_as_the_png_crate_reads_it() {
        let filters = [
            png::Filter::NoFilter,
            png::Filter::Sub,
            png::Filter::Up,
            png::Filter::Avg,
            png::Filter::Paeth,
            png::Filter::Adaptive,
        ];
        let colours =
            [(ColorType::Grayscale, 1), (ColorType::GrayscaleAlpha, 2), (ColorType::Rgb, 3), (ColorType::Rgba, 4)];
        let mut compared = 0;
        for (k, (w, h)) in [(1, 1), (1, 9), (7, 3), (33, 17), (300, 41)].into_iter().enumerate() {
            for &(color, channels) in &colours {
                for filter in filters {
                    let pixels = noise(k as u64 * 31 + channels as u64, w * h * channels);
                    let file = encode(&pixels, w as u32, h as u32, color, filter);
                    let (expected, info) = theirs(&file);
                    assert_eq!(expected, pixels);
                    let ours = read(&file, &info, |_, _, _, _| 0).expect("a plain PNG");
                    assert_eq!(ours, (expected, color), "{w}×{h} {color:?} {filter:?}");
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 5 * 4 * 6);
    }

    #[test]
    fn image_data_in_many_chunks_is_joined() {
        let pixels = noise(5, 200 * 50);
        let mut out = Vec::new();
        {
            let mut e = png::Encoder::new(&mut out, 200, 50);
            e.set_color(ColorType::Grayscale);
            let mut w = e.write_header().expect("header");
            // Small IDAT chunks, as libpng writes 8 KiB ones.
            let mut s = w.stream_writer_with_size(97).expect("stream");
            std::io::Write::write_all(&mut s, &pixels).expect("data");
            s.finish().expect("finished");
        }
        let idats = out.windows(4).filter(|t| t == b"IDAT").count();
        assert!(idats > 10, "{idats}");
        let (_, info) = theirs(&out);
        assert_eq!(read(&out, &info, |_, _, _, _| 0).expect("plain").0, pixels);
    }

    #[test]
    fn anything_irregular_is_left_to_the_png_crate() {
        let pixels = noise(9, 40 * 30);
        let file = encode(&pixels, 40, 30, ColorType::Grayscale, png::Filter::Paeth);
        let (_, info) = theirs(&file);
        let idat = file.windows(4).position(|t| t == b"IDAT").expect("an IDAT") - 4;
        let len = u32::from_be_bytes(file[idat..idat + 4].try_into().unwrap()) as usize;
        // A flipped bit in the data (bad CRC); the same with its CRC fixed (corrupt stream
        // or wrong sum); the file cut inside the chunk; a chunk claiming 4 GiB; a filter
        // type of 5.
        let mut flipped = file.clone();
        flipped[idat + 8 + len / 2] ^= 0x10;
        let mut fixed = flipped.clone();
        let crc = libdeflater::crc32(&fixed[idat + 4..idat + 8 + len]);
        fixed[idat + 8 + len..idat + 12 + len].copy_from_slice(&crc.to_be_bytes());
        let cut = file[..idat + 8 + len / 2].to_vec();
        let mut huge = file.clone();
        huge[idat..idat + 4].copy_from_slice(&u32::MAX.to_be_bytes());
        for (name, bad) in [("flipped", flipped), ("fixed", fixed), ("cut", cut), ("huge", huge)] {
            assert_eq!(read(&bad, &info, |_, _, _, _| 0), None, "{name}");
        }
        let mut rows = vec![5u8, 1, 2, 3];
        assert_eq!(unfilter(&mut rows, 3, 1), None);
    }

    #[test]
    fn other_kinds_are_left_to_the_png_crate() {
        let grey = noise(3, 16 * 16);
        let file = encode(&grey, 16, 16, ColorType::Grayscale, png::Filter::Sub);
        let (_, info) = theirs(&file);
        assert!(read(&file, &info, |_, _, _, _| 0).is_some());
        for change in [
            |i: &mut Info| i.interlaced = true,
            |i: &mut Info| i.bit_depth = BitDepth::Sixteen,
            |i: &mut Info| {
                i.color_type = ColorType::Rgb;
                i.bit_depth = BitDepth::Four;
            },
            // A transparent grey (a palette's tRNS is read here: `packed_pngs_read_…`).
            |i: &mut Info| i.trns = Some(std::borrow::Cow::Borrowed(&[0, 0])),
        ] {
            let mut other = info.clone();
            change(&mut other);
            assert_eq!(read(&file, &other, |_, _, _, _| 0), None);
        }
    }
}
