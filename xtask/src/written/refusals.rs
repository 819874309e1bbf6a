//! The files we write that a peer cannot read although the format allows them, pinned:
//! which peer, what it says (or how its rows differ), and why; their rows are checked
//! with our reader (pqkit) only. And the writer's bugs that a peer shows, pinned until
//! they are fixed.

/// A reader of the files we write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Peer {
    Pyarrow,
    DuckDb,
    Polars,
}

/// Every peer, in the order peers.py reads with them.
pub(crate) const PEERS: [Peer; 3] = [Peer::Pyarrow, Peer::DuckDb, Peer::Polars];

impl Peer {
    /// The peer's name, as peers.py knows it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Pyarrow => "pyarrow",
            Self::DuckDb => "duckdb",
            Self::Polars => "polars",
        }
    }
}

/// Files that a peer cannot read although the format allows them: the peer, a part of
/// what it says when it refuses them, or of how its rows differ from those written when
/// it misreads them (so that a failure for another reason is not taken for this one),
/// and why.
#[derive(Debug)]
pub(crate) struct Refusal {
    pub(crate) files: &'static [&'static str],
    pub(crate) peer: Peer,
    pub(crate) says: &'static str,
    pub(crate) why: &'static str,
}

const LZO: &[&str] = &[
    "ours-flat-lzo.parquet",
    "ours-flat-lzo-v2.parquet",
    "ours-nested-lzo.parquet",
    "ours-nested-lzo-v2.parquet",
];
const NO_LZO: &str = "LZO is a Parquet codec that none of the peers has";

const BIT_PACKED: &[&str] = &[
    "ours-flat-bit-packed-levels.parquet",
    "ours-nested-bit-packed-levels.parquet",
];
const NO_BIT_PACKED: &str = "the deprecated BIT_PACKED encoding of levels (no length \
     prefix, values packed from the most significant bit, as Encodings.md shows); the peer \
     takes the levels for the RLE hybrid with its 4-byte length";

const FLBA_BYTE_STREAM_SPLIT: &[&str] = &[
    "ours-flba-optional-byte-stream-split.parquet",
    "ours-flba-optional-byte-stream-split-v2.parquet",
    "ours-flba-required-byte-stream-split.parquet",
    "ours-flba-required-byte-stream-split-v2.parquet",
];
const FLBA_DELTA_BYTE_ARRAY: &[&str] = &[
    "ours-flba-optional-delta-byte-array.parquet",
    "ours-flba-optional-delta-byte-array-v2.parquet",
    "ours-flba-required-delta-byte-array.parquet",
    "ours-flba-required-delta-byte-array-v2.parquet",
];

/// The files in `DuckDB`'s encryption layout (empty AADs, no `aad_file_unique`).
const DUCKDB_LAYOUT: &[&str] = &[
    "ours-flat-encrypted-duckdb.parquet",
    "ours-nested-encrypted-duckdb.parquet",
    "ours-flat-v2-encrypted-duckdb.parquet",
    "ours-flat-small-pages-encrypted-duckdb.parquet",
];
const SPEC_AAD_ONLY: &str = "DuckDB's layout authenticates every module with an empty AAD, \
     where the specification binds it to the file (aad_file_unique) and its place in it; \
     the peer follows the specification";

const DUCKDB_V2: &str = "DuckDB decrypts the levels of an encrypted DATA_PAGE_V2 as a \
     module of their own, where the page is one module (DuckDB never writes DATA_PAGE_V2: \
     its PARQUET_VERSION V2 writes DATA_PAGE headers); the same in the specification's \
     layout";
const DUCKDB_PAGES: &str = "DuckDB reads no encrypted column chunk of more than one data \
     page: in its own layout it fails on a cast, in the specification's the second page \
     does not authenticate (pyarrow and polars read both). DuckDB writes every chunk as \
     one page, even of 300,000 rows, and reads the specification's layout of a uniformly \
     encrypted file otherwise (ours-flat-encrypted-uniform)";

/// The files whose modules are bound to an AAD prefix.
const AAD_PREFIX: &[&str] = &[
    "ours-flat-encrypted-aad-prefix-stored.parquet",
    "ours-flat-encrypted-aad-prefix-supplied.parquet",
];

/// The refusals of the files we write: what a peer cannot read although the format
/// allows it, and what it refuses because of a writer bug of [`WRITER_BUGS`]. A refusal
/// not listed here, one that says something else, or a listed file that the peer reads,
/// fails the run.
pub(crate) const EXPECTED_REFUSALS: &[Refusal] = &[
    // Codecs and encodings.
    Refusal {
        files: LZO,
        peer: Peer::Pyarrow,
        says: "LZO compression is supported by the Parquet format in general, it is \
               currently not supported by the C++ implementation",
        why: NO_LZO,
    },
    Refusal {
        files: LZO,
        peer: Peer::DuckDb,
        says: "Unsupported compression codec \"LZO\"",
        why: NO_LZO,
    },
    Refusal {
        files: LZO,
        peer: Peer::Polars,
        says: "Compression Lzo is not supported",
        why: NO_LZO,
    },
    Refusal {
        files: &["ours-flat-bit-packed-levels.parquet"],
        peer: Peer::Pyarrow,
        // Arrow C++ reads BIT_PACKED levels least significant bit first: the nulls of
        // each run of eight values come out mirrored, and no error is raised.
        says: "row 0 differs at .int16",
        why: "Arrow C++ unpacks BIT_PACKED levels from the least significant bit, where \
              Encodings.md packs them from the most significant: it reads wrong rows",
    },
    Refusal {
        files: &["ours-nested-bit-packed-levels.parquet"],
        peer: Peer::Pyarrow,
        says: "Length spanned by list offsets",
        why: "Arrow C++ unpacks BIT_PACKED levels from the least significant bit, where \
              Encodings.md packs them from the most significant: the lists do not add up",
    },
    Refusal {
        files: BIT_PACKED,
        peer: Peer::DuckDb,
        says: "Out of buffer",
        why: NO_BIT_PACKED,
    },
    Refusal {
        files: BIT_PACKED,
        peer: Peer::Polars,
        says: "levels is higher than the page size",
        why: NO_BIT_PACKED,
    },
    Refusal {
        files: FLBA_BYTE_STREAM_SPLIT,
        peer: Peer::DuckDb,
        says: "BYTE_STREAM_SPLIT encoding is only supported for FLOAT, DOUBLE, INT32 or \
               INT64 data",
        why: "DuckDB decodes BYTE_STREAM_SPLIT only for the four fixed-width numbers, not \
              for FIXED_LEN_BYTE_ARRAY (FLOAT16, UUID, DECIMAL, bytes)",
    },
    Refusal {
        files: FLBA_BYTE_STREAM_SPLIT,
        peer: Peer::Polars,
        says: "\"ByteStreamSplit\"-encoded",
        why: "polars decodes BYTE_STREAM_SPLIT on FIXED_LEN_BYTE_ARRAY in neither optional \
              nor required columns",
    },
    Refusal {
        files: FLBA_DELTA_BYTE_ARRAY,
        peer: Peer::Polars,
        says: "\"DeltaByteArray\"-encoded",
        why: "polars decodes DELTA_BYTE_ARRAY on FIXED_LEN_BYTE_ARRAY in neither optional nor \
              required columns",
    },
    Refusal {
        files: &[
            "ours-decimal-bytes-delta-length-byte-array.parquet",
            "ours-decimal-bytes-delta-length-byte-array-v2.parquet",
        ],
        peer: Peer::DuckDb,
        says: "Delta Length Byte Array encoding is only supported for string/blob data",
        why: "DuckDB decodes DELTA_LENGTH_BYTE_ARRAY only into VARCHAR and BLOB, not into the \
              DECIMAL of a BYTE_ARRAY (it does decode DELTA_BYTE_ARRAY there)",
    },
    Refusal {
        files: &[
            "ours-nested-delta-length-byte-array-uncompressed-v2-chunk-statistics-no-page-index-bloom-small-pages-no-crc.parquet",
            "ours-nested-delta-byte-array-zstd-chunk-statistics-no-page-index-small-pages.parquet",
        ],
        peer: Peer::Polars,
        says: "validity must be equal to the array's length",
        why: "polars panics on a required string in an optional struct (struct.b) in \
              DELTA_BYTE_ARRAY or DELTA_LENGTH_BYTE_ARRAY over several pages; it does the \
              same on the file pyarrow writes of that column with those encodings and 37 \
              rows a page, and reads both with PLAIN or in one page",
    },
    // Encryption.
    Refusal {
        files: DUCKDB_LAYOUT,
        peer: Peer::Pyarrow,
        says: "Failed decryption finalization",
        why: SPEC_AAD_ONLY,
    },
    Refusal {
        files: DUCKDB_LAYOUT,
        peer: Peer::Polars,
        says: "AAD unique file identifier is not set",
        why: SPEC_AAD_ONLY,
    },
    Refusal {
        files: &["ours-flat-v2-encrypted-duckdb.parquet"],
        peer: Peer::DuckDb,
        says: "DecryptionTransport::Finalize was called with bytes remaining in read buffer",
        why: DUCKDB_V2,
    },
    Refusal {
        files: &["ours-flat-small-pages-encrypted-duckdb.parquet"],
        peer: Peer::DuckDb,
        says: "Information loss on integer cast: value 65535",
        why: DUCKDB_PAGES,
    },
    Refusal {
        files: &["ours-nested-v2-small-pages-encrypted-uniform.parquet"],
        peer: Peer::DuckDb,
        says: "Computed AES tag differs from read AES tag",
        why: DUCKDB_PAGES,
    },
    Refusal {
        files: AAD_PREFIX,
        peer: Peer::DuckDb,
        says: "Computed AES tag differs from read AES tag",
        why: "DuckDB leaves the AAD prefix out of the file AAD, stored or not",
    },
    Refusal {
        files: &["ours-flat-encrypted-aad-prefix-supplied.parquet"],
        peer: Peer::Pyarrow,
        says: "pyarrow's KMS API takes no AAD prefix to supply",
        why: "pyarrow decrypts only through its KMS API (CryptoFactory), which has no way \
              to be given an AAD prefix that the file does not store: peers.py does not try",
    },
    Refusal {
        files: &["ours-flat-encrypted-column-keys.parquet"],
        peer: Peer::DuckDb,
        says: "Could not read enough bytes from file",
        why: "DuckDB takes a footer key only: columns with keys of their own (whose \
              metadata is encrypted apart) are beyond it",
    },
    Refusal {
        files: &["ours-flat-encrypted-plaintext-footer.parquet"],
        peer: Peer::DuckDb,
        says: "is not encrypted, but 'encryption_config' was set",
        why: "DuckDB reads no file whose footer is in plaintext (signed) and whose columns \
              are encrypted",
    },
    Refusal {
        files: &["ours-flat-encrypted-ctr.parquet"],
        peer: Peer::DuckDb,
        says: "only AES_GCM_V1 is supported",
        why: "DuckDB has no AES_GCM_CTR_V1",
    },
    Refusal {
        files: &["ours-flat-encrypted-ctr.parquet"],
        peer: Peer::Polars,
        says: "The AES_GCM_CTR_V1 encryption algorithm is not yet supported",
        why: "polars has no AES_GCM_CTR_V1",
    },
    Refusal {
        files: &["ours-flat-encrypted-192-bit-key.parquet"],
        peer: Peer::Polars,
        says: "unsupported key length: 24, expected 16 or 32 bytes",
        why: "polars takes 128- and 256-bit AES keys, not the 192-bit ones the \
              specification allows",
    },
];

/// The listed refusal of `file` by `peer`, if any.
pub(crate) fn refusal(file: &str, peer: Peer) -> Option<&'static Refusal> {
    EXPECTED_REFUSALS
        .iter()
        .find(|r| r.peer == peer && r.files.contains(&file))
}

/// A bug of the writer that makes a peer abort peers.py on a file: the file, the step of
/// peers.py (as its `.step` file names it) and a part of what the process printed last.
/// The run fails when the file no longer shows it (the bug fixed: take it off) or shows
/// something else. The rest of the file's checks run as for any file, but the step's.
#[derive(Debug)]
pub(crate) struct WriterBug {
    pub(crate) file: &'static str,
    pub(crate) step: &'static str,
    pub(crate) says: &'static str,
    pub(crate) bug: &'static str,
}

/// The writer's bugs that the peers show, pinned until they are fixed.
pub(crate) const WRITER_BUGS: &[WriterBug] = &[];

/// The pinned writer bug of `file`, if any.
pub(crate) fn writer_bug(file: &str) -> Option<&'static WriterBug> {
    WRITER_BUGS.iter().find(|b| b.file == file)
}
