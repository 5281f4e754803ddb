//! The CRC-32 (ISO-HDLC, as zlib computes it) of stored copies and of the
//! bodies they came from. Native builds read 16 bytes per step from a
//! 16 KB table; the WebAssembly builds one byte per step from a 1 KB table,
//! which keeps the module small (a copy is checksummed on store and load,
//! never per check).

#[cfg(not(target_family = "wasm"))]
type Table = crc::Table<16>;
#[cfg(target_family = "wasm")]
type Table = crc::Table<1>;

const CRC32: crc::Crc<u32, Table> = crc::Crc::<u32, Table>::new(&crc::CRC_32_ISO_HDLC);

/// The CRC-32 of `bytes`.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    CRC32.checksum(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn is_zlibs_crc32() {
        // The check value of CRC-32/ISO-HDLC (zlib's crc32).
        assert_eq!(super::crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(super::crc32(b""), 0);
    }
}
