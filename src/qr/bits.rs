//! An append-only buffer of bits, most significant bit first, as QR data is laid out.

/// Bits packed into bytes, most significant bit first.
#[derive(Debug, Default)]
pub struct BitBuffer {
    bytes: Vec<u8>,
    len: usize,
}

impl BitBuffer {
    /// An empty buffer with room for `bits` bits.
    pub fn with_capacity(bits: usize) -> Self {
        Self { bytes: Vec::with_capacity(bits.div_ceil(8)), len: 0 }
    }

    /// Number of bits written.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends the low `count` bits of `value`, most significant first (`count` ≤ 32).
    pub fn put(&mut self, value: u32, count: u32) {
        for i in (0..count).rev() {
            self.put_bit((value >> i) & 1 == 1);
        }
    }

    /// Appends one bit.
    pub fn put_bit(&mut self, bit: bool) {
        let byte = self.len / 8;
        if byte == self.bytes.len() {
            self.bytes.push(0);
        }
        if bit {
            self.bytes[byte] |= 0x80 >> (self.len % 8);
        }
        self.len += 1;
    }

    /// The bytes written so far; a partial last byte is padded with zeros.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_packed_most_significant_first() {
        let mut b = BitBuffer::default();
        b.put(0b0100, 4);
        b.put(0b1, 1);
        b.put(0xAB, 8);
        assert_eq!(b.len(), 13);
        assert_eq!(b.into_bytes(), vec![0b0100_1101, 0b0101_1000]);
    }
}
