//! What the writer writes: the file version, the compression, and the sizes of chunks,
//! stripes and row groups.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::stream::{MAX_CHUNK_LEN, OrcCompression};

/// The version of the file format to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OrcVersion {
    /// ORC v0, as Hive 0.11 wrote it: integer RLE version 1, `DIRECT` and `DICTIONARY`
    /// encodings (strings choose between them by the dictionary-size ratio, as in
    /// 0.12), no writer time zone in stripe footers.
    V0_11,
    /// ORC v1, Hive 0.12 and later: integer RLE version 2, `DIRECT_V2` and
    /// `DICTIONARY_V2` encodings.
    #[default]
    V0_12,
}

impl OrcVersion {
    /// The postscript's `version`: `[0, 11]` or `[0, 12]`.
    pub const fn numbers(self) -> [u32; 2] {
        match self {
            Self::V0_11 => [0, 11],
            Self::V0_12 => [0, 12],
        }
    }

    /// `"0.11"` or `"0.12"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::V0_11 => "0.11",
            Self::V0_12 => "0.12",
        }
    }
}

impl fmt::Display for OrcVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OrcVersion {
    type Err = Error;

    /// `"0.11"` or `"0.12"` (also `"v0"` and `"v1"`, the specification's names).
    fn from_str(s: &str) -> Result<Self> {
        match s.trim() {
            "0.11" | "v0" | "V0" => Ok(Self::V0_11),
            "0.12" | "v1" | "V1" => Ok(Self::V0_12),
            _ => Err(Error::input(
                "ORC file version: expected 0.11 or 0.12 (v0 or v1)",
            )),
        }
    }
}

/// The writer's settings, built with the methods below; [`WriterOptions::default`]
/// matches Apache ORC's Java writer: version 0.12, ZLIB in 256 KiB chunks, 64 MiB
/// stripes, a row index every 10,000 rows, the dictionary kept for strings whose
/// distinct values are at most 80% of their values, and UTC as the writer time zone.
///
/// ```
/// use orc_file::{OrcCompression, OrcVersion, WriterOptions};
///
/// let options = WriterOptions::default()
///     .version(OrcVersion::V0_11)
///     .compression(OrcCompression::None)
///     .row_index_stride(0);
/// assert_eq!(options.get_version(), OrcVersion::V0_11);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct WriterOptions {
    pub(crate) version: OrcVersion,
    pub(crate) compression: OrcCompression,
    pub(crate) compression_level: Option<i32>,
    pub(crate) block_size: usize,
    pub(crate) stripe_size: usize,
    pub(crate) row_index_stride: usize,
    pub(crate) dictionary_threshold: f64,
    pub(crate) writer_timezone: String,
    pub(crate) checkpoint_every: usize,
}

impl Default for WriterOptions {
    fn default() -> Self {
        Self {
            version: OrcVersion::V0_12,
            compression: OrcCompression::Zlib,
            compression_level: None,
            block_size: 256 * 1024,
            stripe_size: 64 * 1024 * 1024,
            row_index_stride: 10_000,
            dictionary_threshold: 0.8,
            writer_timezone: "UTC".to_owned(),
            checkpoint_every: 0,
        }
    }
}

impl WriterOptions {
    /// Writes an intermediate footer after every `stripes` stripes (0, the default: none),
    /// as [`OrcWriter::write_intermediate_footer`](crate::OrcWriter::write_intermediate_footer)
    /// does: a whole tail of the stripes so far, from which
    /// [`recover`](crate::recover::recover()) (and ORC Java's `orc-tools meta --recover`)
    /// restore them if the writer dies before [`finish`](crate::OrcWriter::finish).
    ///
    /// Readers never look between stripes, where intermediate footers lie, and read the
    /// file as any other. The cost is their bytes: the `k`th repeats the stripe
    /// information and statistics of `k × stripes` stripes (tens of bytes per stripe, and
    /// per column a stripe's statistics).
    #[must_use]
    pub fn checkpoint_every(mut self, stripes: usize) -> Self {
        self.checkpoint_every = stripes;
        self
    }

    /// The defaults (see the type's docs).
    pub fn new() -> Self {
        Self::default()
    }

    /// The file version (default 0.12).
    #[must_use]
    pub fn version(mut self, version: OrcVersion) -> Self {
        self.version = version;
        self
    }

    /// The generic compression (default ZLIB, as Apache ORC's Java writer).
    #[must_use]
    pub fn compression(mut self, compression: OrcCompression) -> Self {
        self.compression = compression;
        self
    }

    /// The codec's level: 0 to 9 for ZLIB, -131072 to 22 for ZSTD (default: the
    /// codec's own). Other codecs have none; [`OrcWriter::new`](crate::OrcWriter::new)
    /// refuses a level for them.
    #[must_use]
    pub fn compression_level(mut self, level: i32) -> Self {
        self.compression_level = Some(level);
        self
    }

    /// The most uncompressed bytes in a compression chunk, recorded in the postscript
    /// (default 256 KiB; at most 8 MiB - 1, what a chunk header holds).
    #[must_use]
    pub fn compression_block_size(mut self, bytes: usize) -> Self {
        self.block_size = bytes;
        self
    }

    /// The size of the encoded streams (before compression) at which a stripe is
    /// written (default 64 MiB). The writer holds about this much.
    #[must_use]
    pub fn stripe_size(mut self, bytes: usize) -> Self {
        self.stripe_size = bytes;
        self
    }

    /// The rows of a row group, the unit of the row index (default 10,000); 0 writes no
    /// row index.
    #[must_use]
    pub fn row_index_stride(mut self, rows: usize) -> Self {
        self.row_index_stride = rows;
        self
    }

    /// The largest ratio of distinct values to non-null values for which a string,
    /// char or varchar column keeps its dictionary in a stripe (default 0.8; 0 never
    /// uses dictionaries, 1 always does). The ratio is checked at the end of the
    /// stripe's first row group, or at the end of the stripe when it has fewer rows or
    /// there is no row index.
    #[must_use]
    pub fn dictionary_key_size_threshold(mut self, ratio: f64) -> Self {
        self.dictionary_threshold = ratio;
        self
    }

    /// The time zone recorded in version 0.12 stripe footers (default `"UTC"`).
    ///
    /// Timestamps are written as the wall clock they hold, which is exact only for a
    /// zone without daylight saving time or other changes of offset: `UTC`, `GMT`,
    /// `Etc/UTC`, `Etc/GMT` and `Etc/GMT+N` / `Etc/GMT-N`; other names are refused by
    /// [`OrcWriter::new`](crate::OrcWriter::new).
    ///
    /// The seconds are stored as Apache ORC's Java writer stores them: those of the UTC
    /// instant (the wall clock less the zone's offset) truncated toward zero, which
    /// readers take one second back from when they are negative and the fraction is a
    /// millisecond or more. An instant from 1 s before 1970-01-01T00:00:00Z up to it,
    /// with a fraction of a millisecond or more (a `timestamp` whose wall clock is
    /// within a second before the zone's offset past midnight of 1970-01-01, a
    /// `timestamp with local time zone` in the last second of 1969 UTC), therefore
    /// stores second 0 and is read back, by ORC Java, the C++ reader and this crate
    /// alike, one second late: 1969-12-31T23:59:59.999999Z as
    /// 1970-01-01T00:00:00.999999Z. The format has no way to store it that Java reads
    /// back (Java writes it so too).
    #[must_use]
    pub fn writer_timezone(mut self, zone: impl Into<String>) -> Self {
        self.writer_timezone = zone.into();
        self
    }

    /// The file version.
    pub fn get_version(&self) -> OrcVersion {
        self.version
    }

    /// The compression.
    pub fn get_compression(&self) -> OrcCompression {
        self.compression
    }

    /// The compression block size.
    pub fn get_compression_block_size(&self) -> usize {
        self.block_size
    }

    /// The stripe size.
    pub fn get_stripe_size(&self) -> usize {
        self.stripe_size
    }

    /// The row index stride.
    pub fn get_row_index_stride(&self) -> usize {
        self.row_index_stride
    }

    /// Checks the settings that can be wrong on their own.
    pub(crate) fn validate(&self) -> Result<()> {
        if self.compression.is_compressed() && !(1..=MAX_CHUNK_LEN).contains(&self.block_size) {
            return Err(Error::input_value(
                "compression block size out of range (1 to 8388607)",
                Some(self.block_size as i128),
            ));
        }
        if u32::try_from(self.row_index_stride).is_err() {
            return Err(Error::input_value(
                "row index stride that does not fit 32 bits",
                Some(self.row_index_stride as i128),
            ));
        }
        if self.dictionary_threshold.is_nan() {
            return Err(Error::input("dictionary key size threshold NaN"));
        }
        if fixed_offset_seconds(&self.writer_timezone).is_none() {
            return Err(Error::input(
                "a writer time zone whose offset varies: only zones of a fixed offset are \
                 supported (UTC, GMT, Etc/UTC, Etc/GMT, Etc/GMT+N, Etc/GMT-N)",
            ));
        }
        Ok(())
    }
}

/// The offset from UTC, in seconds, of `zone` if it names a zone whose offset never
/// changed (so that a wall clock written relative to 2015-01-01 in it reads back the
/// same everywhere); `None` for other names.
pub(crate) fn fixed_offset_seconds(zone: &str) -> Option<i64> {
    match zone {
        "UTC" | "GMT" | "Etc/UTC" | "Etc/GMT" | "Etc/UCT" | "Etc/Universal" | "Etc/Zulu"
        | "Etc/Greenwich" | "Etc/GMT0" | "Etc/GMT+0" | "Etc/GMT-0" => Some(0),
        _ => {
            // The tz database's Etc/GMT-14 .. Etc/GMT-1 and Etc/GMT+1 .. Etc/GMT+12,
            // whose signs are POSIX's: Etc/GMT+8 is 8 hours behind UTC.
            let (hours, most, sign) =
                match (zone.strip_prefix("Etc/GMT-"), zone.strip_prefix("Etc/GMT+")) {
                    (Some(hours), _) => (hours, 14, 1),
                    (_, Some(hours)) => (hours, 12, -1),
                    _ => return None,
                };
            if hours.starts_with('0') {
                return None;
            }
            let hours = hours
                .parse::<u8>()
                .ok()
                .filter(|h| (1..=most).contains(h))?;
            Some(sign * i64::from(hours) * 3600)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_and_print() {
        assert_eq!("0.11".parse::<OrcVersion>().ok(), Some(OrcVersion::V0_11));
        assert_eq!("0.12".parse::<OrcVersion>().ok(), Some(OrcVersion::V0_12));
        assert!("0.13".parse::<OrcVersion>().is_err());
        assert_eq!(OrcVersion::V0_11.to_string(), "0.11");
        assert_eq!(OrcVersion::default(), OrcVersion::V0_12);
    }

    #[test]
    fn settings_are_checked() {
        assert!(WriterOptions::default().validate().is_ok());
        assert!(
            WriterOptions::default()
                .compression_block_size(0)
                .validate()
                .is_err()
        );
        assert!(
            WriterOptions::default()
                .compression(OrcCompression::None)
                .compression_block_size(0)
                .validate()
                .is_ok()
        );
        assert!(
            WriterOptions::default()
                .writer_timezone("Etc/GMT-5")
                .validate()
                .is_ok()
        );
        assert!(
            WriterOptions::default()
                .writer_timezone("Etc/GMT+12")
                .validate()
                .is_ok()
        );
        assert!(
            WriterOptions::default()
                .writer_timezone("Etc/GMT+13")
                .validate()
                .is_err()
        );
        assert!(
            WriterOptions::default()
                .writer_timezone("America/New_York")
                .validate()
                .is_err()
        );
    }

    #[test]
    fn fixed_zones_have_posix_signs() {
        assert_eq!(fixed_offset_seconds("UTC"), Some(0));
        assert_eq!(fixed_offset_seconds("Etc/GMT+8"), Some(-8 * 3600));
        assert_eq!(fixed_offset_seconds("Etc/GMT-14"), Some(14 * 3600));
        assert_eq!(fixed_offset_seconds("Etc/GMT-15"), None);
        assert_eq!(fixed_offset_seconds("Etc/GMT+08"), None);
        assert_eq!(fixed_offset_seconds("Europe/Paris"), None);
    }
}
