//! The files the write side writes: a [`Setup`] (table, encoding, codec, page version,
//! statistics, page index, Bloom filters, page and row group sizes, checksums,
//! encryption) per file, chosen so that every value of every dimension is written
//! around a base, every encoding and codec in both page versions, and every pair of
//! values of two dimensions in at least one file (a pairwise set), without writing
//! the full product.

use super::data::{Leaf, Table};
use parquet_file::{
    Algorithm, BloomFilterOptions, Codec, ColumnOptions, ColumnPath, Encoding, EncryptionOptions,
    Key, PageVersion, PhysicalType, SortingColumn, StatisticsLevel, WriterOptions,
};
use std::collections::BTreeSet;

/// How values are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Values {
    /// RLE_DICTIONARY, falling back to PLAIN (the writer's default).
    Dictionary,
    /// PLAIN_DICTIONARY in the headers, as parquet-java 1.x writes.
    LegacyDictionary,
    /// Dictionaries that overflow a 256-byte page and fall back to PLAIN mid-chunk.
    DictionaryFallback,
    /// No dictionary: PLAIN for every column.
    Plain,
    /// No dictionary: each of these for the columns it encodes, PLAIN for the others.
    Rle,
    DeltaBinaryPacked,
    DeltaLengthByteArray,
    DeltaByteArray,
    ByteStreamSplit,
}

impl Values {
    const ALL: [Self; 9] = [
        Self::Dictionary,
        Self::LegacyDictionary,
        Self::DictionaryFallback,
        Self::Plain,
        Self::Rle,
        Self::DeltaBinaryPacked,
        Self::DeltaLengthByteArray,
        Self::DeltaByteArray,
        Self::ByteStreamSplit,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Dictionary => "dictionary",
            Self::LegacyDictionary => "legacy-dictionary",
            Self::DictionaryFallback => "dictionary-fallback",
            Self::Plain => "plain",
            Self::Rle => "rle",
            Self::DeltaBinaryPacked => "delta-binary-packed",
            Self::DeltaLengthByteArray => "delta-length-byte-array",
            Self::DeltaByteArray => "delta-byte-array",
            Self::ByteStreamSplit => "byte-stream-split",
        }
    }

    /// The encoding of the values that are not dictionary-encoded.
    fn encoding(self) -> Encoding {
        match self {
            Self::Rle => Encoding::Rle,
            Self::DeltaBinaryPacked => Encoding::DeltaBinaryPacked,
            Self::DeltaLengthByteArray => Encoding::DeltaLengthByteArray,
            Self::DeltaByteArray => Encoding::DeltaByteArray,
            Self::ByteStreamSplit => Encoding::ByteStreamSplit,
            _ => Encoding::Plain,
        }
    }
}

/// The codecs every peer reads (LZO, which none does, has files of its own).
const CODECS: [Codec; 7] = [
    Codec::Uncompressed,
    Codec::Snappy,
    Codec::Gzip,
    Codec::Brotli,
    Codec::Lz4,
    Codec::Lz4Raw,
    Codec::Zstd,
];

fn codec_name(codec: Codec) -> &'static str {
    match codec {
        Codec::Uncompressed => "uncompressed",
        Codec::Snappy => "snappy",
        Codec::Gzip => "gzip",
        Codec::Lzo => "lzo",
        Codec::Brotli => "brotli",
        Codec::Lz4 => "lz4-hadoop",
        Codec::Lz4Raw => "lz4-raw",
        Codec::Zstd => "zstd",
        _ => "other",
    }
}

/// How a file is encrypted; the keys are [`FOOTER_KEY`] and [`COLUMN_KEYS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Crypto {
    /// The footer key for everything, AES_GCM_V1, as `DuckDB` writes: no
    /// `aad_file_unique`, empty AADs ([`EncryptionOptions::with_empty_aad`]).
    DuckDb,
    /// The footer key for everything, AES_GCM_V1.
    Uniform,
    /// The footer key for everything, AES_GCM_CTR_V1.
    Ctr,
    /// Column keys for some columns, the footer key for the others and the footer, one
    /// column in plaintext.
    ColumnKeys,
    /// [`Crypto::ColumnKeys`] with a plaintext footer, signed.
    PlaintextFooter,
    /// [`Crypto::ColumnKeys`] with an AAD prefix stored in the file.
    AadPrefixStored,
    /// [`Crypto::ColumnKeys`] with an AAD prefix that readers must supply.
    AadPrefixSupplied,
    /// [`Crypto::Uniform`] with a 192-bit footer key ([`FOOTER_KEY_192`]).
    Key192,
}

impl Crypto {
    fn name(self) -> &'static str {
        match self {
            Self::DuckDb => "encrypted-duckdb",
            Self::Uniform => "encrypted-uniform",
            Self::Ctr => "encrypted-ctr",
            Self::ColumnKeys => "encrypted-column-keys",
            Self::PlaintextFooter => "encrypted-plaintext-footer",
            Self::AadPrefixStored => "encrypted-aad-prefix-stored",
            Self::AadPrefixSupplied => "encrypted-aad-prefix-supplied",
            Self::Key192 => "encrypted-192-bit-key",
        }
    }

    /// Whether some columns have keys of their own.
    pub(crate) fn column_keys(self) -> bool {
        !matches!(
            self,
            Self::DuckDb | Self::Uniform | Self::Ctr | Self::Key192
        )
    }

    /// The footer key.
    pub(crate) fn footer_key(self) -> &'static [u8] {
        if self == Self::Key192 {
            FOOTER_KEY_192
        } else {
            FOOTER_KEY
        }
    }

    /// The AAD prefix readers must supply.
    pub(crate) fn supplied_prefix(self) -> Option<&'static str> {
        (self == Self::AadPrefixSupplied).then_some(AAD_PREFIX)
    }
}

/// The footer key (as the parquet-testing files use it).
pub(crate) const FOOTER_KEY: &[u8; 16] = b"0123456789012345";
/// A 192-bit footer key, which AES allows and polars does not take.
pub(crate) const FOOTER_KEY_192: &[u8; 24] = b"012345678901234567890123";
/// The column keys of the columns that have one, by path (128 and 256 bits).
pub(crate) const COLUMN_KEYS: &[(&str, &[u8])] = &[
    ("double", b"1234567890123450"),
    ("string", b"12345678901234501234567890123450"),
];
/// The column left in plaintext when some have keys of their own.
pub(crate) const PLAINTEXT_COLUMN: &str = "int32";
const AAD_PREFIX: &str = "parquet-kit";

/// The key metadata of a key: the key material that pyarrow's `CryptoFactory` reads
/// (PKMT1, stored in the file, the key "wrapped" by a KMS client that only encodes it
/// in base64: see `peers.py`).
fn key_material(master_key: &str, key: &[u8], footer: bool) -> Vec<u8> {
    let kms = if footer {
        "\"kmsInstanceID\":\"DEFAULT\",\"kmsInstanceURL\":\"DEFAULT\","
    } else {
        ""
    };
    format!(
        "{{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":true,\"isFooterKey\":{footer},\
         {kms}\"masterKeyID\":\"{master_key}\",\"wrappedDEK\":\"{}\",\"doubleWrapping\":false}}",
        super::json::base64(key)
    )
    .into_bytes()
}

/// The key-value metadata of the sorted table's files, whose rows are sorted by their
/// first column (`id`), as their row groups say.
pub(crate) const KEY_VALUE: (&str, &str) = ("parquet-kit.interop", "sorted by id");

/// The length of bounds of byte arrays where [`Setup::truncate`].
pub(crate) const TRUNCATED: usize = 8;

/// Everything that decides how one file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(clippy::struct_excessive_bools)] // independent switches
pub(crate) struct Setup {
    pub(crate) table: Table,
    pub(crate) values: Values,
    pub(crate) codec: CodecId,
    pub(crate) page_version: Version,
    pub(crate) statistics: Stats,
    pub(crate) page_index: bool,
    pub(crate) bloom: bool,
    /// Pages of 37 rows and row groups of 150 (the sorted table has pages of 100 rows and
    /// row groups of 700 always, the long table pages of 16 KiB and row groups of 160 KiB).
    pub(crate) small: bool,
    /// Bounds of byte arrays truncated to 8 bytes.
    pub(crate) truncate: bool,
    /// No rows: a footer without row groups.
    pub(crate) empty: bool,
    pub(crate) bit_packed_levels: bool,
    pub(crate) crc: bool,
    pub(crate) distinct_count: bool,
    /// A checkpoint after every row group (`with_checkpoint_every(1)`).
    pub(crate) checkpoints: bool,
    pub(crate) crypto: Option<Crypto>,
}

/// A [`Codec`], ordered (for sets of setups).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct CodecId(u8);

impl CodecId {
    fn of(codec: Codec) -> Self {
        Self(
            [
                Codec::Uncompressed,
                Codec::Snappy,
                Codec::Gzip,
                Codec::Lzo,
                Codec::Brotli,
                Codec::Lz4,
                Codec::Zstd,
                Codec::Lz4Raw,
            ]
            .iter()
            .position(|c| *c == codec)
            .and_then(|i| u8::try_from(i).ok())
            .unwrap_or(0),
        )
    }

    /// The codec.
    pub(crate) fn codec(self) -> Codec {
        Codec::from_parquet(i32::from(self.0)).unwrap_or(Codec::Uncompressed)
    }
}

/// A [`PageVersion`], ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Version {
    V1,
    V2,
}

/// A [`StatisticsLevel`], ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Stats {
    None,
    Chunk,
    Page,
}

impl Setup {
    /// The base of a table: dictionaries, SNAPPY, version 1 pages, statistics per page
    /// with a page index, no Bloom filter, default sizes, checksums.
    pub(crate) fn base(table: Table) -> Self {
        Self {
            table,
            values: Values::Dictionary,
            codec: CodecId::of(Codec::Snappy),
            page_version: Version::V1,
            statistics: Stats::Page,
            page_index: true,
            bloom: false,
            small: table == Table::Sorted,
            truncate: false,
            empty: false,
            bit_packed_levels: false,
            crc: true,
            distinct_count: false,
            checkpoints: false,
            crypto: None,
        }
    }

    /// The file's name: the table, then each setting that differs from the base.
    pub(crate) fn file_name(&self) -> String {
        let base = Self::base(self.table);
        let mut name = format!("ours-{}", self.table.name());
        let mut add = |differs: bool, part: &str| {
            if differs {
                name.push('-');
                name.push_str(part);
            }
        };
        add(self.values != base.values, self.values.name());
        add(self.codec != base.codec, codec_name(self.codec.codec()));
        add(self.page_version == Version::V2, "v2");
        add(self.statistics == Stats::None, "no-statistics");
        add(self.statistics == Stats::Chunk, "chunk-statistics");
        add(!self.page_index, "no-page-index");
        add(self.bloom, "bloom");
        add(self.small != base.small, "small-pages");
        add(self.truncate, "truncated-statistics");
        add(self.empty, "empty");
        add(self.bit_packed_levels, "bit-packed-levels");
        add(!self.crc, "no-crc");
        add(self.distinct_count, "distinct-count");
        add(self.checkpoints, "checkpoints");
        if let Some(crypto) = self.crypto {
            add(true, crypto.name());
        }
        name + ".parquet"
    }

    /// The writer's options for the table's columns (`leaves`: each leaf column's path
    /// and type).
    pub(crate) fn options(&self, leaves: &[(ColumnPath, Leaf)]) -> Result<WriterOptions, String> {
        let mut options = WriterOptions::new()
            .with_compression(self.codec.codec())
            .with_page_version(match self.page_version {
                Version::V1 => PageVersion::V1,
                Version::V2 => PageVersion::V2,
            })
            .with_statistics(match self.statistics {
                Stats::None => StatisticsLevel::None,
                Stats::Chunk => StatisticsLevel::Chunk,
                Stats::Page => StatisticsLevel::Page,
            })
            .with_page_index(self.page_index)
            .with_bit_packed_levels(self.bit_packed_levels)
            .with_crc(self.crc)
            .with_distinct_count(self.distinct_count)
            .with_created_by(format!(
                "{} (cargo xtask interop)",
                parquet_file::CREATED_BY
            ));
        if self.checkpoints {
            options = options.with_checkpoint_every(1);
        }
        if self.bloom {
            options = options.with_bloom_filter(Some(BloomFilterOptions::default()));
        }
        if self.truncate {
            options = options.with_truncate_length(Some(TRUNCATED));
        }
        if self.table == Table::Sorted {
            options = options
                .with_page_rows(100)
                .with_row_group_rows(700)
                .with_sorting_columns(vec![SortingColumn {
                    column: 0,
                    descending: false,
                    nulls_first: false,
                }])
                .with_key_value(KEY_VALUE.0, Some(KEY_VALUE.1.to_owned()));
        } else if self.table == Table::Long {
            options = options
                .with_page_bytes(16 * 1024)
                .with_row_group_bytes(160 * 1024);
        } else if self.small {
            options = options.with_page_rows(37).with_row_group_rows(150);
        }
        match self.values {
            Values::Dictionary => {}
            Values::LegacyDictionary => options = options.with_legacy_dictionary(true),
            Values::DictionaryFallback => options = options.with_dictionary_page_bytes(256),
            _ => {
                let peers_limited = !self.table.peers_limited();
                for (path, leaf) in leaves {
                    let encoding = self.values.encoding();
                    let encoding = if fits(encoding, *leaf, peers_limited) {
                        encoding
                    } else {
                        Encoding::Plain
                    };
                    options = options.with_column(
                        path.clone(),
                        ColumnOptions {
                            encoding: Some(encoding),
                            dictionary: Some(false),
                            ..ColumnOptions::default()
                        },
                    );
                }
            }
        }
        if let Some(crypto) = self.crypto {
            options = options.with_encryption(Some(encryption(crypto)?));
        }
        Ok(options)
    }
}

/// Whether `encoding` is written for a leaf. With `peers_limited`, not where a peer
/// cannot read it (the tables of [`Table::peers_limited`] hold those, and the refusals
/// are pinned there): BYTE_STREAM_SPLIT on FIXED_LEN_BYTE_ARRAY (`DuckDB`, polars),
/// DELTA_BYTE_ARRAY on FIXED_LEN_BYTE_ARRAY (polars), DELTA_LENGTH_BYTE_ARRAY on a
/// DECIMAL (`DuckDB`).
fn fits(encoding: Encoding, leaf: Leaf, peers_limited: bool) -> bool {
    use PhysicalType as P;
    let physical = leaf.physical();
    match encoding {
        Encoding::Rle => physical == P::Boolean,
        Encoding::DeltaBinaryPacked => matches!(physical, P::Int32 | P::Int64),
        Encoding::DeltaLengthByteArray => {
            physical == P::ByteArray && !(peers_limited && matches!(leaf, Leaf::Decimal { .. }))
        }
        Encoding::DeltaByteArray => match physical {
            P::ByteArray => true,
            P::FixedLenByteArray => !peers_limited,
            _ => false,
        },
        Encoding::ByteStreamSplit => match physical {
            P::Float | P::Double | P::Int32 | P::Int64 => true,
            P::FixedLenByteArray => !peers_limited,
            _ => false,
        },
        _ => true,
    }
}

fn key(bytes: &[u8]) -> Result<Key, String> {
    Key::try_new(bytes).map_err(|e| format!("a test key: {e}"))
}

fn encryption(crypto: Crypto) -> Result<EncryptionOptions, String> {
    let footer = crypto.footer_key();
    let mut options = EncryptionOptions::new(key(footer)?)
        .with_footer_key_metadata(key_material("footer", footer, true));
    match crypto {
        // With the key metadata pyarrow needs to try it (DuckDB writes none, and reads
        // the file either way).
        Crypto::DuckDb => return Ok(options.with_empty_aad(true)),
        Crypto::Uniform | Crypto::Key192 => return Ok(options),
        Crypto::Ctr => return Ok(options.with_algorithm(Algorithm::AesGcmCtrV1)),
        _ => {}
    }
    for (path, bytes) in COLUMN_KEYS {
        options =
            options.with_column_key(*path, key(bytes)?, Some(key_material(path, bytes, false)));
    }
    options = options.with_plaintext_column(PLAINTEXT_COLUMN);
    Ok(match crypto {
        Crypto::PlaintextFooter => options.with_plaintext_footer(true),
        Crypto::AadPrefixStored => options.with_aad_prefix(AAD_PREFIX.as_bytes().to_vec(), true),
        Crypto::AadPrefixSupplied => options.with_aad_prefix(AAD_PREFIX.as_bytes().to_vec(), false),
        _ => options,
    })
}

/// Every file's setup, each once, in a stable order.
pub(crate) fn all() -> Vec<Setup> {
    let mut setups = around_the_base();
    // Bounds of byte arrays truncated: of strings and binaries, and of strings that
    // filters rely on; a UUID's (a FIXED_LEN_BYTE_ARRAY's) kept whole, as its type wants.
    setups.push(Setup {
        truncate: true,
        ..Setup::base(Table::Flat)
    });
    setups.extend(pairwise());
    setups.extend(sorted());
    // Pages and row groups that end by their size in bytes.
    let long = Setup::base(Table::Long);
    setups.extend([
        long,
        Setup {
            values: Values::Plain,
            page_version: Version::V2,
            codec: CodecId::of(Codec::Zstd),
            bloom: true,
            ..long
        },
    ]);
    setups.extend(peers_limited());
    setups.extend(encrypted());
    let mut seen = BTreeSet::new();
    setups.retain(|s| seen.insert(s.file_name()));
    setups
}

/// The flat and nested tables with one dimension at a time changed from the base, every
/// encoding and codec in both page versions.
fn around_the_base() -> Vec<Setup> {
    let mut setups = Vec::new();
    for table in [Table::Flat, Table::Nested] {
        let base = Setup::base(table);
        setups.push(base);
        for page_version in [Version::V1, Version::V2] {
            let base = Setup {
                page_version,
                ..base
            };
            setups.push(base);
            for values in Values::ALL {
                setups.push(Setup { values, ..base });
            }
            for codec in CODECS.into_iter().chain([Codec::Lzo]) {
                setups.push(Setup {
                    codec: CodecId::of(codec),
                    ..base
                });
            }
        }
        setups.extend([
            Setup {
                statistics: Stats::None,
                ..base
            },
            Setup {
                statistics: Stats::Chunk,
                ..base
            },
            Setup {
                page_index: false,
                ..base
            },
            Setup {
                bloom: true,
                ..base
            },
            Setup {
                small: true,
                ..base
            },
            // Checkpoints between row groups, which readers pass over.
            Setup {
                small: true,
                checkpoints: true,
                ..base
            },
            Setup { crc: false, ..base },
            Setup {
                empty: true,
                ..base
            },
            Setup {
                bit_packed_levels: true,
                ..base
            },
        ]);
    }
    setups
}

/// The sorted table, for filters, statistics, page indexes, Bloom filters and distinct
/// counts.
fn sorted() -> Vec<Setup> {
    let sorted = Setup {
        bloom: true,
        distinct_count: true,
        ..Setup::base(Table::Sorted)
    };
    vec![
        sorted,
        Setup {
            page_version: Version::V2,
            values: Values::DeltaBinaryPacked,
            codec: CodecId::of(Codec::Zstd),
            ..sorted
        },
        Setup {
            values: Values::DeltaByteArray,
            statistics: Stats::Chunk,
            ..sorted
        },
        Setup {
            values: Values::Plain,
            statistics: Stats::None,
            bloom: false,
            distinct_count: false,
            ..sorted
        },
        Setup {
            truncate: true,
            ..sorted
        },
        Setup {
            checkpoints: true,
            ..sorted
        },
    ]
}

/// The encodings that some peer cannot read, where they can be written
/// ([`Table::peers_limited`]), and the same tables in the base setup.
fn peers_limited() -> Vec<Setup> {
    let mut setups = Vec::new();
    for (table, encodings) in [
        (
            Table::FlbaOptional,
            &[Values::DeltaByteArray, Values::ByteStreamSplit][..],
        ),
        (
            Table::FlbaRequired,
            &[Values::DeltaByteArray, Values::ByteStreamSplit],
        ),
        (Table::DecimalBytes, &[Values::DeltaLengthByteArray]),
    ] {
        setups.push(Setup::base(table));
        for &values in encodings {
            for page_version in [Version::V1, Version::V2] {
                setups.push(Setup {
                    values,
                    page_version,
                    ..Setup::base(table)
                });
            }
        }
    }
    setups
}

/// Every way of encrypting, on the flat table; `DuckDB`'s layout also on the nested
/// table, and where `DuckDB` cannot read it (version 2 pages, chunks of several pages).
fn encrypted() -> Vec<Setup> {
    let mut setups: Vec<Setup> = [
        Crypto::DuckDb,
        Crypto::Uniform,
        Crypto::Ctr,
        Crypto::ColumnKeys,
        Crypto::PlaintextFooter,
        Crypto::AadPrefixStored,
        Crypto::AadPrefixSupplied,
        Crypto::Key192,
    ]
    .into_iter()
    .map(|crypto| Setup {
        crypto: Some(crypto),
        ..Setup::base(Table::Flat)
    })
    .collect();
    for (table, page_version, small) in [
        (Table::Nested, Version::V1, false),
        (Table::Flat, Version::V2, false),
        (Table::Flat, Version::V1, true),
    ] {
        setups.push(Setup {
            crypto: Some(Crypto::DuckDb),
            page_version,
            small,
            ..Setup::base(table)
        });
    }
    setups.push(Setup {
        crypto: Some(Crypto::Uniform),
        page_version: Version::V2,
        small: true,
        ..Setup::base(Table::Nested)
    });
    setups
}

/// A set of setups in which every pair of values of two dimensions (table, encoding,
/// codec, page version, statistics, page index, Bloom filter, sizes, checksums) occurs at
/// least once: the greedy construction, deterministic.
fn pairwise() -> Vec<Setup> {
    let sizes = [2, Values::ALL.len(), CODECS.len(), 2, 3, 2, 2, 2, 2];
    pairwise_rows(&sizes)
        .into_iter()
        .map(|row| Setup {
            table: [Table::Flat, Table::Nested][row[0]],
            values: Values::ALL[row[1]],
            codec: CodecId::of(CODECS[row[2]]),
            page_version: [Version::V1, Version::V2][row[3]],
            statistics: [Stats::Page, Stats::Chunk, Stats::None][row[4]],
            page_index: row[5] == 0,
            bloom: row[6] == 1,
            small: row[7] == 1,
            crc: row[8] == 0,
            ..Setup::base(Table::Flat)
        })
        .collect()
}

/// Rows of values (`row[d] < sizes[d]`) covering every pair of values of two dimensions:
/// each row starts from the first pair not yet covered, and fills every other dimension
/// with the value that covers most new pairs (the lowest, among equals).
fn pairwise_rows(sizes: &[usize]) -> Vec<Vec<usize>> {
    let mut uncovered = BTreeSet::new();
    for (d1, &n1) in sizes.iter().enumerate() {
        for (d2, &n2) in sizes.iter().enumerate().skip(d1 + 1) {
            for v1 in 0..n1 {
                for v2 in 0..n2 {
                    uncovered.insert((d1, v1, d2, v2));
                }
            }
        }
    }
    let mut rows = Vec::new();
    while let Some(&(d1, v1, d2, v2)) = uncovered.iter().next() {
        let mut row: Vec<Option<usize>> = vec![None; sizes.len()];
        row[d1] = Some(v1);
        row[d2] = Some(v2);
        for d in 0..sizes.len() {
            if row[d].is_some() {
                continue;
            }
            let gain = |v: usize| {
                row.iter()
                    .enumerate()
                    .filter_map(|(e, value)| value.map(|value| (e, value)))
                    .filter(|&(e, value)| {
                        let pair = if e < d {
                            (e, value, d, v)
                        } else {
                            (d, v, e, value)
                        };
                        uncovered.contains(&pair)
                    })
                    .count()
            };
            let best = (0..sizes[d]).max_by_key(|&v| (gain(v), std::cmp::Reverse(v)));
            row[d] = best;
        }
        let row: Vec<usize> = row.into_iter().map(|v| v.unwrap_or(0)).collect();
        for (d1, &v1) in row.iter().enumerate() {
            for (d2, &v2) in row.iter().enumerate().skip(d1 + 1) {
                uncovered.remove(&(d1, v1, d2, v2));
            }
        }
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairwise_rows_cover_every_pair() {
        let sizes = [2, 9, 7, 2, 3, 2, 2, 2, 2];
        let rows = pairwise_rows(&sizes);
        for d1 in 0..sizes.len() {
            for d2 in d1 + 1..sizes.len() {
                for v1 in 0..sizes[d1] {
                    for v2 in 0..sizes[d2] {
                        assert!(rows.iter().any(|r| r[d1] == v1 && r[d2] == v2));
                    }
                }
            }
        }
        assert!(rows.len() < 80, "{} rows", rows.len());
    }

    #[test]
    fn names_are_distinct_and_stable() {
        let setups = all();
        let names: BTreeSet<String> = setups.iter().map(Setup::file_name).collect();
        assert_eq!(names.len(), setups.len());
        assert!(names.contains("ours-flat.parquet"));
        assert!(names.contains("ours-nested-delta-binary-packed-v2.parquet"));
        assert!(names.contains("ours-flba-optional-byte-stream-split.parquet"));
    }
}
