//! The flags that say how a Parquet file is written (`rewrite`, `convert`).

use std::collections::HashMap;

use clap::{Args, ValueEnum};
use parquet_file::Compression;
use parquet_file::{
    Algorithm, BloomFilterOptions, Codec, ColumnOptions, ColumnPath, Encoding, EncryptionOptions,
    PageVersion, PhysicalType, Schema, StatisticsLevel, TimeUnit, WriterOptions,
};

use crate::Failure;
use crate::filter::resolve;
use crate::timestamps::Unit;

/// How a Parquet file is written, its column chunks encoded on every core. Unset flags
/// leave the writer's defaults: SNAPPY,
/// dictionary encoding falling back to PLAIN, version 1 pages of at most 1 MiB and 20,000
/// rows, row groups of at most 1,048,576 rows and 128 MiB, statistics per page with a
/// page index, page CRCs.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Writing Parquet")]
#[allow(clippy::struct_excessive_bools)] // independent switches
pub(crate) struct WriteArgs {
    /// The codec: `uncompressed`, `snappy`, `gzip`, `lzo`, `brotli`, `lz4`, `zstd` or
    /// `lz4_raw`, with a level for gzip (0 to 9), brotli (0 to 11) or zstd (-131072 to
    /// 22): `zstd:9`.
    #[arg(long, value_name = "CODEC[:LEVEL]", value_parser = compression)]
    compression: Option<Compression>,
    /// A column's encoding (repeatable): `plain`, `rle` (BOOLEAN), `delta_binary_packed`,
    /// `delta_length_byte_array`, `delta_byte_array` or `byte_stream_split` (the column's
    /// dictionary then off), or `rle_dictionary` or `plain_dictionary` (its dictionary on,
    /// falling back to PLAIN; `plain_dictionary` writes every dictionary of the file in
    /// that legacy form).
    #[arg(long, value_name = "COLUMN:ENCODING", value_parser = column_encoding)]
    encoding: Vec<(String, Encoding)>,
    /// The version of the data pages.
    #[arg(long, value_name = "1|2", value_parser = clap::value_parser!(u8).range(1..=2))]
    page_version: Option<u8>,
    /// A row group ends at this many rows.
    #[arg(long, value_name = "N", value_parser = positive)]
    row_group_rows: Option<usize>,
    /// Writes a checkpoint after every N row groups (of ORC output: stripes): a footer of
    /// those so far, from which `pqkit recover` restores them if the write never
    /// finishes (not with encryption).
    #[arg(long, value_name = "N", value_parser = positive, conflicts_with = "encrypt_footer_key")]
    checkpoint_every: Option<usize>,
    /// A data page ends at this many rows.
    #[arg(long, value_name = "N", value_parser = positive)]
    page_rows: Option<usize>,
    /// A data page ends at about this many bytes before compression.
    #[arg(long, value_name = "N", value_parser = positive)]
    page_bytes: Option<usize>,
    /// Dictionary encoding of every column (BOOLEAN aside).
    #[arg(long, value_enum, value_name = "on|off")]
    dictionary: Option<Switch>,
    /// A Bloom filter for a column (repeatable), sized for NDV distinct values per row
    /// group (by default, for those it has), 5% false positives.
    #[arg(long, value_name = "COLUMN[:NDV]", value_parser = column_bloom)]
    bloom: Vec<(String, Option<u64>)>,
    /// Which statistics are written.
    #[arg(long, value_enum, value_name = "none|chunk|page")]
    statistics: Option<Statistics>,
    /// Writes no column or offset index.
    #[arg(long)]
    no_page_index: bool,
    /// Writes no page checksums.
    #[arg(long)]
    no_crc: bool,
    /// Every timestamp in this unit: TIMESTAMP of any unit and INT96 become INT64
    /// TIMESTAMP (a value with digits below the unit is an error). Without it each keeps
    /// its unit, but for ORC's nanoseconds, written in `us` (what Spark reads; it refuses
    /// `ns`).
    #[arg(long, value_enum, value_name = "ms|us|ns")]
    timestamp_unit: Option<Unit>,
    #[command(flatten)]
    encrypt: EncryptArgs,
}

/// How the output is encrypted.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Encrypting the output")]
#[allow(clippy::struct_excessive_bools)] // independent switches
struct EncryptArgs {
    /// Encrypts the output: the footer key, in hex (16, 24 or 32 bytes), which also
    /// encrypts every column without a key of its own.
    #[arg(long, value_name = "HEX")]
    encrypt_footer_key: Option<String>,
    /// A column's own key: the column's dotted path and the key in hex (repeatable).
    #[arg(long, value_name = "PATH:HEX", requires = "encrypt_footer_key")]
    encrypt_column_key: Vec<String>,
    /// Encrypts the footer (the default when encrypting).
    #[arg(
        long,
        requires = "encrypt_footer_key",
        conflicts_with = "plaintext_footer"
    )]
    encrypt_footer: bool,
    /// Leaves the footer in plaintext, signed with the footer key: readers without keys
    /// see the schema.
    #[arg(long, requires = "encrypt_footer_key")]
    plaintext_footer: bool,
    /// The cipher: AES-GCM for everything (gcm, the default), or AES-CTR for page
    /// data (ctr).
    #[arg(
        long,
        value_enum,
        value_name = "gcm|ctr",
        requires = "encrypt_footer_key"
    )]
    algorithm: Option<Cipher>,
    /// An AAD prefix binding the file's modules to it (a file name, say), stored in the
    /// file.
    #[arg(long, value_name = "TEXT", requires = "encrypt_footer_key")]
    encrypt_aad_prefix: Option<String>,
    /// Does not store the AAD prefix: readers must be given it (`--aad-prefix`).
    #[arg(long, requires = "encrypt_aad_prefix")]
    no_store_aad_prefix: bool,
}

/// On or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Switch {
    On,
    Off,
}

/// Which statistics are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Statistics {
    /// None.
    None,
    /// In the column chunk metadata.
    Chunk,
    /// In the column chunk metadata, the page headers and the column index.
    Page,
}

/// The encryption algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Cipher {
    /// AES_GCM_V1: every module encrypted and authenticated by AES-GCM.
    Gcm,
    /// AES_GCM_CTR_V1: page data by AES-CTR (faster, not authenticated), the rest by
    /// AES-GCM.
    Ctr,
}

/// A whole number above 0.
pub(crate) fn positive(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("expected a whole number above 0".into()),
    }
}

/// `CODEC[:LEVEL]`.
fn compression(text: &str) -> Result<Compression, String> {
    let (name, level) = match text.split_once(':') {
        Some((name, level)) => (name, Some(level)),
        None => (text, None),
    };
    let codec = match name.to_ascii_lowercase().as_str() {
        "uncompressed" | "none" => Codec::Uncompressed,
        "snappy" => Codec::Snappy,
        "gzip" => Codec::Gzip,
        "lzo" => Codec::Lzo,
        "brotli" => Codec::Brotli,
        "lz4" => Codec::Lz4,
        "zstd" => Codec::Zstd,
        "lz4_raw" => Codec::Lz4Raw,
        _ => {
            return Err(format!(
                "{name:?} is not a codec: uncompressed, snappy, gzip, lzo, brotli, lz4, zstd or lz4_raw"
            ));
        }
    };
    if !codec.is_enabled() {
        return Err(format!("{codec} is not in this build of pqkit"));
    }
    match level {
        None => Ok(codec.into()),
        Some(level) => {
            let level: i32 = level
                .parse()
                .map_err(|_| format!("{level:?} is not a compression level"))?;
            Compression::with_level(codec, level).map_err(|e| e.to_string())
        }
    }
}

/// `COLUMN:ENCODING`.
fn column_encoding(text: &str) -> Result<(String, Encoding), String> {
    let Some((column, name)) = text.rsplit_once(':') else {
        return Err("expected COLUMN:ENCODING".into());
    };
    let encoding = match name.to_ascii_lowercase().as_str() {
        "plain" => Encoding::Plain,
        "rle" => Encoding::Rle,
        "delta_binary_packed" => Encoding::DeltaBinaryPacked,
        "delta_length_byte_array" => Encoding::DeltaLengthByteArray,
        "delta_byte_array" => Encoding::DeltaByteArray,
        "byte_stream_split" => Encoding::ByteStreamSplit,
        "rle_dictionary" => Encoding::RleDictionary,
        "plain_dictionary" => Encoding::PlainDictionary,
        _ => {
            return Err(format!(
                "{name:?} is not an encoding: plain, rle, delta_binary_packed, \
                 delta_length_byte_array, delta_byte_array, byte_stream_split, \
                 rle_dictionary or plain_dictionary"
            ));
        }
    };
    Ok((column.to_owned(), encoding))
}

/// `COLUMN[:NDV]`.
fn column_bloom(text: &str) -> Result<(String, Option<u64>), String> {
    match text.rsplit_once(':') {
        Some((column, ndv)) => match ndv.parse::<u64>() {
            Ok(ndv) if ndv > 0 => Ok((column.to_owned(), Some(ndv))),
            _ => Err(format!(
                "{ndv:?} is not a number of distinct values above 0"
            )),
        },
        None => Ok((text.to_owned(), None)),
    }
}

/// The leaf column at the dotted path `text`.
fn leaf(schema: &Schema, text: &str, flag: &str) -> Result<(ColumnPath, usize), Failure> {
    let path = resolve(schema, text, flag)?;
    if let Some(index) = schema.column_index(&path) {
        return Ok((path, index));
    }
    let leaves: Vec<String> = schema
        .columns_under(&path)
        .iter()
        .filter_map(|&c| schema.column(c).ok().map(|c| c.path.to_string()))
        .collect();
    Err(Failure::Usage(format!(
        "{flag}: {text:?} is not a leaf column; its leaves: {}",
        leaves.join(", ")
    )))
}

impl WriteArgs {
    /// The first flag given, when any is (for output that is not Parquet, where none
    /// applies).
    pub(crate) fn first_given(&self) -> Option<&'static str> {
        self.checkpoint_every
            .map(|_| "--checkpoint-every")
            .or_else(|| self.first_parquet_only())
    }

    /// The first flag given that only Parquet output takes (all but
    /// `--checkpoint-every`, which ORC output takes too).
    pub(crate) fn first_parquet_only(&self) -> Option<&'static str> {
        let e = &self.encrypt;
        [
            (self.compression.is_some(), "--compression"),
            (!self.encoding.is_empty(), "--encoding"),
            (self.page_version.is_some(), "--page-version"),
            (self.row_group_rows.is_some(), "--row-group-rows"),
            (self.page_rows.is_some(), "--page-rows"),
            (self.page_bytes.is_some(), "--page-bytes"),
            (self.dictionary.is_some(), "--dictionary"),
            (!self.bloom.is_empty(), "--bloom"),
            (self.statistics.is_some(), "--statistics"),
            (self.no_page_index, "--no-page-index"),
            (self.no_crc, "--no-crc"),
            (self.timestamp_unit.is_some(), "--timestamp-unit"),
            (e.encrypt_footer_key.is_some(), "--encrypt-footer-key"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    /// After how many row groups (or stripes) a checkpoint is written, when
    /// `--checkpoint-every` says.
    pub(crate) fn checkpoint_every(&self) -> Option<usize> {
        self.checkpoint_every
    }

    /// The unit of every timestamp written, when `--timestamp-unit` gives one.
    pub(crate) fn timestamp_unit(&self) -> Option<TimeUnit> {
        self.timestamp_unit.map(TimeUnit::from)
    }

    /// The writer's options for files of `schema`.
    ///
    /// # Errors
    ///
    /// Bad usage: a column that is not a leaf of `schema`, a Bloom filter for a BOOLEAN
    /// column, a key that is not one.
    pub(crate) fn options(&self, schema: &Schema) -> Result<WriterOptions, Failure> {
        // Every core encodes: the file is the same as one encoded on one.
        let mut options = WriterOptions::new().with_parallel_encoding(true);
        if let Some(compression) = self.compression {
            options = options.with_compression(compression);
        }
        if let Some(version) = self.page_version {
            options = options.with_page_version(if version == 2 {
                PageVersion::V2
            } else {
                PageVersion::V1
            });
        }
        if let Some(rows) = self.row_group_rows {
            options = options.with_row_group_rows(rows);
        }
        if let Some(every) = self.checkpoint_every {
            options = options.with_checkpoint_every(every);
        }
        if let Some(rows) = self.page_rows {
            options = options.with_page_rows(rows);
        }
        if let Some(bytes) = self.page_bytes {
            options = options.with_page_bytes(bytes);
        }
        if let Some(switch) = self.dictionary {
            options = options.with_dictionary(switch == Switch::On);
        }
        if let Some(level) = self.statistics {
            options = options.with_statistics(match level {
                Statistics::None => StatisticsLevel::None,
                Statistics::Chunk => StatisticsLevel::Chunk,
                Statistics::Page => StatisticsLevel::Page,
            });
        }
        options = options
            .with_page_index(!self.no_page_index)
            .with_crc(!self.no_crc);
        let mut columns: HashMap<ColumnPath, ColumnOptions> = HashMap::new();
        for (text, encoding) in &self.encoding {
            let (path, _) = leaf(schema, text, "--encoding")?;
            if *encoding == Encoding::PlainDictionary {
                // The writer's switch for the legacy form is file-wide.
                options = options.with_legacy_dictionary(true);
            }
            let column = columns.entry(path).or_default();
            column.encoding = Some(*encoding);
            // An encoding named for a column is the one its values are written in, not
            // the writer's fallback from a dictionary.
            column.dictionary = Some(matches!(
                encoding,
                Encoding::RleDictionary | Encoding::PlainDictionary
            ));
        }
        for (text, ndv) in &self.bloom {
            let (path, index) = leaf(schema, text, "--bloom")?;
            if schema.column(index)?.physical_type == PhysicalType::Boolean {
                return Err(Failure::Usage(format!(
                    "--bloom: column {text} is BOOLEAN, for which the format defines no Bloom filter"
                )));
            }
            columns.entry(path).or_default().bloom_filter = Some(Some(BloomFilterOptions {
                ndv: *ndv,
                ..BloomFilterOptions::default()
            }));
        }
        for (path, column) in columns {
            options = options.with_column(path, column);
        }
        self.encrypt.options(schema, options)
    }
}

impl EncryptArgs {
    /// `options`, encrypted as the flags say.
    fn options(&self, schema: &Schema, options: WriterOptions) -> Result<WriterOptions, Failure> {
        let Some(footer) = &self.encrypt_footer_key else {
            return Ok(options);
        };
        let mut encryption = EncryptionOptions::new(crate::key(footer, "--encrypt-footer-key")?)
            .with_plaintext_footer(self.plaintext_footer)
            .with_algorithm(match self.algorithm {
                Some(Cipher::Ctr) => Algorithm::AesGcmCtrV1,
                Some(Cipher::Gcm) | None => Algorithm::AesGcmV1,
            });
        for column in &self.encrypt_column_key {
            let Some((path, hex)) = column.rsplit_once(':') else {
                return Err(Failure::Usage(format!(
                    "--encrypt-column-key: {column:?} is not PATH:HEX"
                )));
            };
            let (path, _) = leaf(schema, path, "--encrypt-column-key")?;
            encryption =
                encryption.with_column_key(path, crate::key(hex, "--encrypt-column-key")?, None);
        }
        if let Some(prefix) = &self.encrypt_aad_prefix {
            encryption =
                encryption.with_aad_prefix(prefix.as_bytes().to_vec(), !self.no_store_aad_prefix);
        }
        Ok(options.with_encryption(Some(encryption)))
    }
}
