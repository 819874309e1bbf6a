//! Files whose tails are malformed or make claims the bytes cannot back: each is an
//! error that says what is wrong, never a panic or an allocation sized by the claim.

#![allow(clippy::unwrap_used)]

use bytes::Bytes;
use orc_file::{Error, ErrorKind, OrcReader, proto};
use prost::Message;

/// A file of `body` followed by a footer, a postscript and its length byte.
fn file(
    body: &[u8],
    footer: &proto::Footer,
    postscript: impl FnOnce(u64) -> proto::PostScript,
) -> Bytes {
    let mut out = body.to_vec();
    let footer = footer.encode_to_vec();
    out.extend_from_slice(&footer);
    let ps = postscript(footer.len() as u64).encode_to_vec();
    out.extend_from_slice(&ps);
    out.push(u8::try_from(ps.len()).unwrap_or(255));
    Bytes::from(out)
}

fn postscript(footer_length: u64) -> proto::PostScript {
    proto::PostScript {
        footer_length: Some(footer_length),
        compression: Some(proto::CompressionKind::None as i32),
        compression_block_size: Some(256 * 1024),
        version: vec![0, 12],
        metadata_length: Some(0),
        writer_version: Some(9),
        magic: Some("ORC".to_owned()),
        ..Default::default()
    }
}

fn schema() -> Vec<proto::Type> {
    orc_file::TypeDescription::parse("struct<a:bigint>")
        .map(|t| t.to_proto())
        .unwrap_or_default()
}

fn open_error(bytes: Bytes) -> Error {
    match OrcReader::open(bytes) {
        Ok(_) => panic!("opened"),
        Err(e) => e,
    }
}

#[test]
fn an_empty_file_opens() {
    let footer = proto::Footer {
        header_length: Some(3),
        content_length: Some(0),
        types: schema(),
        number_of_rows: Some(0),
        ..Default::default()
    };
    let reader = OrcReader::open(file(b"ORC", &footer, postscript)).unwrap();
    assert_eq!(reader.num_rows(), 0);
    assert_eq!(reader.schema().to_string(), "struct<a:bigint>");
    assert_eq!(
        reader
            .rows(orc_file::ReadOptions::default())
            .unwrap()
            .count(),
        0
    );
}

#[test]
fn short_or_foreign_bytes_are_errors() {
    let error = open_error(Bytes::from_static(b"OR"));
    assert!(
        matches!(error.kind(), ErrorKind::NotOrc { found: None, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("too short"), "{error}");
    // The last byte, `1`, claims a postscript of 49 bytes in a file of 12.
    let error = open_error(Bytes::from_static(b"PAR1\0\0\0\0PAR1"));
    assert!(
        matches!(
            error.kind(),
            ErrorKind::Invalid {
                what: "postscript length",
                value: 49
            }
        ),
        "{error}"
    );
    assert_eq!(error.location().offset, Some(11), "{error}");
    // A postscript of one byte, `R`, which does not decode.
    let error = open_error(Bytes::from_static(b"PAR1\0\0\0\0PAR\x01"));
    assert!(
        matches!(error.kind(), ErrorKind::Proto { what, .. } if what.starts_with("postscript")),
        "{error}"
    );
    assert_eq!(error.location().offset, Some(10), "{error}");
    let footer = proto::Footer {
        types: schema(),
        ..Default::default()
    };
    let bad_magic = file(b"ORC", &footer, |len| proto::PostScript {
        magic: Some("PAR".to_owned()),
        ..postscript(len)
    });
    let error = open_error(bad_magic);
    assert!(
        matches!(error.kind(), ErrorKind::NotOrc { found: Some(found), .. } if **found == *b"PAR"),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "not an ORC file: postscript magic \"PAR\""
    );
}

#[test]
fn lengths_past_the_file_are_errors() {
    let footer = proto::Footer {
        types: schema(),
        ..Default::default()
    };
    // A footer claimed longer than the file.
    let long = file(b"ORC", &footer, |_| postscript(1 << 20));
    let error = open_error(long);
    assert!(
        matches!(
            error.kind(),
            ErrorKind::TooMany {
                what: "bytes of the footer, for those between the header and the postscript",
                found: 1_048_576,
                ..
            }
        ),
        "{error}"
    );
    // Metadata claimed larger than anything accepted: no allocation of 2^40 bytes.
    let huge = file(b"ORC", &footer, |len| proto::PostScript {
        metadata_length: Some(1 << 40),
        ..postscript(len)
    });
    let error = open_error(huge);
    assert!(
        matches!(
            error.kind(),
            ErrorKind::LimitExceeded {
                limit: "metadata size",
                value: 1_099_511_627_776,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn stripes_outside_the_data_are_errors() {
    let footer = proto::Footer {
        types: schema(),
        number_of_rows: Some(1 << 40),
        stripes: vec![proto::StripeInformation {
            offset: Some(3),
            index_length: Some(0),
            data_length: Some(1 << 40),
            footer_length: Some(10),
            number_of_rows: Some(1 << 40),
            ..Default::default()
        }],
        ..Default::default()
    };
    let error = open_error(file(b"ORC", &footer, postscript));
    assert!(
        matches!(error.kind(), ErrorKind::OutOfBounds { what: "stripe", .. }),
        "{error}"
    );
    assert_eq!(error.location().stripe, Some(0), "{error}");
}

#[test]
fn type_trees_that_are_not_trees_are_errors() {
    let mut types = schema();
    types[0].subtypes = vec![0];
    let footer = proto::Footer {
        types,
        ..Default::default()
    };
    let error = open_error(file(b"ORC", &footer, postscript));
    assert!(
        matches!(
            error.kind(),
            ErrorKind::Mismatch {
                expected: 1,
                found: 0,
                ..
            }
        ),
        "{error}"
    );
    // The root names itself as its subtype.
    assert_eq!(error.location().column, Some(0), "{error}");
    // A root that is not a struct.
    let footer = proto::Footer {
        types: vec![proto::Type {
            kind: Some(proto::r#type::Kind::Int as i32),
            ..Default::default()
        }],
        ..Default::default()
    };
    let error = open_error(file(b"ORC", &footer, postscript));
    assert!(
        matches!(
            error.kind(),
            ErrorKind::WrongType {
                expected: "struct",
                found: "int",
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn unknown_codecs_are_unsupported() {
    let footer = proto::Footer {
        types: schema(),
        ..Default::default()
    };
    let brotli = file(b"ORC", &footer, |len| proto::PostScript {
        compression: Some(6),
        ..postscript(len)
    });
    assert!(matches!(
        OrcReader::open(brotli).map_err(Error::into_kind),
        Err(ErrorKind::Unsupported {
            what: "BROTLI compression",
            value: None
        })
    ));
}

#[test]
fn a_block_size_past_the_limit_is_refused() {
    let footer = proto::Footer {
        types: schema(),
        ..Default::default()
    };
    // A gibibyte per chunk: one chunk would inflate to it for a handful of rows.
    let huge = file(b"ORC", &footer, |len| proto::PostScript {
        compression: Some(proto::CompressionKind::Zlib as i32),
        compression_block_size: Some(1 << 30),
        ..postscript(len)
    });
    assert!(matches!(
        OrcReader::open(huge.clone()).map_err(Error::into_kind),
        Err(ErrorKind::LimitExceeded {
            limit: "compression block size",
            value: 1_073_741_824,
            max: 67_108_864
        })
    ));
    // A reader told to allow it goes on to the footer (which is not ZLIB chunks).
    let limits = orc_file::Limits::default().with_max_block_size(1 << 30);
    let error = OrcReader::open_with(huge, limits).err().unwrap();
    assert!(
        matches!(error.kind(), ErrorKind::Decode { what: "footer", .. }),
        "{error}"
    );
    assert!(error.location().offset.is_some(), "{error}");
}
