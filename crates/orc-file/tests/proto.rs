//! The generated protobuf types (`src/proto.rs` is generated, so its tests live here):
//! hand-built bytes decode to the fields the specification gives them, and fields a
//! newer writer adds are skipped.
#![allow(clippy::unwrap_used)]

use orc_file::proto::{
    ColumnEncoding, ColumnStatistics, CompressionKind, Footer, IntegerStatistics, PostScript,
    RowIndex, RowIndexEntry, Stream, StripeFooter, Type, column_encoding, stream, r#type,
};
use orc_file::{Error, ErrorKind, OrcCompression};
use prost::Message;

/// The postscript of a ZLIB file with 256 KiB chunks, version 0.12, field by field.
const POSTSCRIPT: &[u8] = &[
    0x08, 0xd2, 0x01, // 1 footerLength: varint 210
    0x10, 0x01, // 2 compression: ZLIB
    0x18, 0x80, 0x80, 0x10, // 3 compressionBlockSize: varint 262144
    0x22, 0x02, 0x00, 0x0c, // 4 version: packed [0, 12]
    0x28, 0x1e, // 5 metadataLength: 30
    0x30, 0x06, // 6 writerVersion: 6 (ORC-135)
    0x82, 0xf4, 0x03, 0x03, b'O', b'R', b'C', // 8000 magic: "ORC"
];

#[test]
fn decodes_a_hand_built_postscript() {
    let postscript = PostScript::decode(POSTSCRIPT).unwrap();
    assert_eq!(postscript.footer_length, Some(210));
    assert_eq!(postscript.compression(), CompressionKind::Zlib);
    assert_eq!(postscript.compression, Some(1));
    assert_eq!(postscript.compression_block_size, Some(262_144));
    assert_eq!(postscript.version, [0, 12]);
    assert_eq!(postscript.metadata_length, Some(30));
    assert_eq!(postscript.writer_version, Some(6));
    assert_eq!(postscript.stripe_statistics_length, None);
    assert_eq!(postscript.magic.as_deref(), Some("ORC"));
    assert_eq!(
        OrcCompression::from_proto(postscript.compression.unwrap_or(0)).unwrap(),
        OrcCompression::Zlib
    );

    // prost writes the same bytes back: fields in order, the version packed.
    assert_eq!(postscript.encode_to_vec(), POSTSCRIPT);
}

#[test]
fn unknown_fields_are_skipped() {
    let mut bytes = POSTSCRIPT.to_vec();
    // Field 9 varint, field 10 length-delimited, field 11 fixed32, field 12 fixed64,
    // field 9000 varint: numbers this definition does not know, one of each wire type.
    bytes.extend_from_slice(&[0x48, 0xff, 0xff, 0x03]);
    bytes.extend_from_slice(&[0x52, 0x03, 1, 2, 3]);
    bytes.extend_from_slice(&[0x5d, 1, 2, 3, 4]);
    bytes.extend_from_slice(&[0x61, 1, 2, 3, 4, 5, 6, 7, 8]);
    bytes.extend_from_slice(&[0xc0, 0xb2, 0x04, 0x01]);
    // A group (wire types 3 and 4, long deprecated) of field 13 holding a varint.
    bytes.extend_from_slice(&[0x6b, 0x08, 0x01, 0x6c]);
    let postscript = PostScript::decode(&bytes[..]).unwrap();
    assert_eq!(postscript, PostScript::decode(POSTSCRIPT).unwrap());

    // Inside a nested message too: a Type with an unknown field 8 (ORC 2.x's geometry).
    let mut footer = Footer {
        number_of_rows: Some(3),
        ..Footer::default()
    };
    let mut long = Type::default();
    long.set_kind(r#type::Kind::Long);
    footer.types.push(long.clone());
    let mut type_bytes = long.encode_to_vec();
    type_bytes.extend_from_slice(&[0x42, 0x02, 0x08, 0x00]);
    let mut footer_bytes = vec![0x22, u8::try_from(type_bytes.len()).unwrap()];
    footer_bytes.extend_from_slice(&type_bytes);
    footer_bytes.extend_from_slice(&[0x30, 0x03]);
    assert_eq!(Footer::decode(&footer_bytes[..]).unwrap(), footer);
}

#[test]
fn unknown_enum_values_are_kept_raw() {
    // compression = 9: the accessor reads it as the default, NONE; the raw field keeps
    // it, and OrcCompression refuses it.
    let mut bytes = POSTSCRIPT.to_vec();
    bytes[4] = 0x09;
    let postscript = PostScript::decode(&bytes[..]).unwrap();
    assert_eq!(postscript.compression, Some(9));
    assert_eq!(postscript.compression(), CompressionKind::None);
    assert!(matches!(
        OrcCompression::from_proto(postscript.compression.unwrap_or(0)).map_err(Error::into_kind),
        Err(ErrorKind::Unsupported {
            what: "compression kind",
            value: Some(9)
        })
    ));
}

#[test]
fn malformed_bytes_are_errors() {
    // Cut inside the magic's length-delimited field, and inside a varint.
    for len in [POSTSCRIPT.len() - 1, 1, 7] {
        let error = PostScript::decode(&POSTSCRIPT[..len]).unwrap_err();
        assert!(
            matches!(Error::from(error).kind(), ErrorKind::Proto { .. }),
            "{len}"
        );
    }
    // A length past the end.
    assert!(Footer::decode(&[0x22, 0x7f, 0x08][..]).is_err());
    // Wire type 7 does not exist.
    assert!(PostScript::decode(&[0x0f][..]).is_err());
}

#[test]
fn field_numbers_and_encodings() {
    // Statistics are zigzag varints (sint64): minimum -1 is 0x01, maximum 1 is 0x02.
    let stats = ColumnStatistics {
        number_of_values: Some(2),
        int_statistics: Some(IntegerStatistics {
            minimum: Some(-1),
            maximum: Some(1),
            sum: None,
        }),
        has_null: Some(true),
        ..ColumnStatistics::default()
    };
    assert_eq!(
        stats.encode_to_vec(),
        [0x08, 0x02, 0x12, 0x04, 0x08, 0x01, 0x10, 0x02, 0x50, 0x01]
    );

    // A stripe footer: stream kinds and column encodings by number.
    let mut data = Stream {
        column: Some(1),
        length: Some(100),
        ..Stream::default()
    };
    data.set_kind(stream::Kind::Data);
    let mut encoding = ColumnEncoding {
        dictionary_size: Some(5),
        ..ColumnEncoding::default()
    };
    encoding.set_kind(column_encoding::Kind::DictionaryV2);
    let footer = StripeFooter {
        streams: vec![data],
        columns: vec![encoding],
        writer_timezone: Some("UTC".into()),
        encryption: Vec::new(),
    };
    assert_eq!(
        footer.encode_to_vec(),
        [
            0x0a, 0x06, 0x08, 0x01, 0x10, 0x01, 0x18, 0x64, // streams: DATA, 1, 100
            0x12, 0x04, 0x08, 0x03, 0x10, 0x05, // columns: DICTIONARY_V2, 5
            0x1a, 0x03, b'U', b'T', b'C', // writerTimezone
        ]
    );
    assert_eq!(stream::Kind::BloomFilterUtf8 as i32, 8);
    assert_eq!(stream::Kind::FileStatistics as i32, 101);
    assert_eq!(r#type::Kind::TimestampInstant as i32, 18);
    assert_eq!(r#type::Kind::Char as i32, 17);

    // Row index positions are packed.
    let index = RowIndex {
        entry: vec![RowIndexEntry {
            positions: vec![0, 300, 2],
            statistics: None,
        }],
    };
    assert_eq!(
        index.encode_to_vec(),
        [0x0a, 0x06, 0x0a, 0x04, 0x00, 0xac, 0x02, 0x02]
    );
    // Apache ORC reads unpacked positions too, and so does prost.
    let unpacked = [0x0a, 0x07, 0x08, 0x00, 0x08, 0xac, 0x02, 0x08, 0x02];
    assert_eq!(RowIndex::decode(&unpacked[..]).unwrap(), index);
}
