//! The compact protocol, from byte literals.

use crate::compact::{FieldHeader, FieldType, ListHeader, MapHeader, Reader, Writer};
use crate::{Error, ReadThrift, WriteThrift};

fn header(id: i16, field_type: FieldType) -> FieldHeader {
    FieldHeader { id, field_type }
}

#[test]
fn short_and_long_field_headers() {
    // Field 1 (i32), field 2 (bool true, delta 1), field 17 (i64, delta 15), field 16
    // (binary, going back: long form), field 300 (long form), field -1 (long form), stop.
    let bytes = [
        0x15, 0x06, // 1: i32 3
        0x11, // 2: true
        0xf6, 0x02, // 17: i64 1
        0x08, 0x20, 0x00, // 16: binary ""
        0x0c, 0xd8, 0x04, 0x00, // 300: struct {}
        0x05, 0x01, 0x07, // -1: i32 -4
        0x00,
    ];
    let mut reader = Reader::new(&bytes);
    let mut last = 0;
    assert_eq!(
        reader.read_field_header(&mut last, "t").unwrap(),
        Some(header(1, FieldType::I32))
    );
    assert_eq!(reader.read_i32("t").unwrap(), 3);
    assert_eq!(
        reader.read_field_header(&mut last, "t").unwrap(),
        Some(header(2, FieldType::BooleanTrue))
    );
    assert_eq!(
        reader.read_field_header(&mut last, "t").unwrap(),
        Some(header(17, FieldType::I64))
    );
    assert_eq!(reader.read_i64("t").unwrap(), 1);
    assert_eq!(
        reader.read_field_header(&mut last, "t").unwrap(),
        Some(header(16, FieldType::Binary))
    );
    assert_eq!(reader.read_binary("t").unwrap(), b"");
    assert_eq!(
        reader.read_field_header(&mut last, "t").unwrap(),
        Some(header(300, FieldType::Struct))
    );
    reader.skip_field(FieldType::Struct).unwrap();
    assert_eq!(
        reader.read_field_header(&mut last, "t").unwrap(),
        Some(header(-1, FieldType::I32))
    );
    assert_eq!(reader.read_i32("t").unwrap(), -4);
    assert_eq!(reader.read_field_header(&mut last, "t").unwrap(), None);
    assert_eq!(reader.remaining(), 0);

    // The writer makes the same choices.
    let mut out = Vec::new();
    let mut writer = Writer::new(&mut out);
    writer.write_field_header(FieldType::I32, 1, 0);
    writer.write_i32(3);
    writer.write_bool_field(2, 1, true);
    writer.write_field_header(FieldType::I64, 17, 2);
    writer.write_i64(1);
    writer.write_field_header(FieldType::Binary, 16, 17);
    writer.write_binary(b"").unwrap();
    writer.write_field_header(FieldType::Struct, 300, 16);
    writer.write_stop();
    writer.write_field_header(FieldType::I32, -1, 300);
    writer.write_i32(-4);
    writer.write_stop();
    assert_eq!(out, bytes);
}

#[test]
fn bad_field_headers() {
    // Type codes 14 and 15 do not exist.
    for byte in [0x1e, 0x1f] {
        let mut last = 0;
        assert_eq!(
            Reader::new(&[byte]).read_field_header(&mut last, "t"),
            Err(Error::invalid("t", 0, byte.into()))
        );
    }
    // A delta past i16::MAX.
    let mut last = i16::MAX;
    assert!(matches!(
        Reader::new(&[0x15]).read_field_header(&mut last, "t"),
        Err(Error::Invalid { offset: 0, .. })
    ));
    // A long-form id outside the i16 range.
    let mut last = 0;
    assert!(matches!(
        Reader::new(&[0x05, 0x80, 0x80, 0x04]).read_field_header(&mut last, "t"),
        Err(Error::Invalid { offset: 1, .. })
    ));
    // Nothing at all, or a long form cut short.
    assert_eq!(
        Reader::new(&[]).read_field_header(&mut last, "t"),
        Err(Error::truncated("t", 0, 1, 0))
    );
    assert!(matches!(
        Reader::new(&[0x05, 0x80]).read_field_header(&mut last, "t"),
        Err(Error::Truncated { offset: 1, .. })
    ));
    // Any byte of type 0 ends a struct, as in Thrift's own readers.
    assert_eq!(
        Reader::new(&[0x10]).read_field_header(&mut last, "t"),
        Ok(None)
    );
}

#[test]
fn integers() {
    let mut reader = Reader::new(&[0xff, 0x7f, 0x80]);
    assert_eq!(reader.read_i8("t").unwrap(), -1);
    assert_eq!(reader.read_i8("t").unwrap(), 127);
    assert_eq!(reader.read_i8("t").unwrap(), -128);

    // i16: zigzag 65534 is 32767; 65536 (32768) does not fit.
    assert_eq!(Reader::new(&[0xfe, 0xff, 0x03]).read_i16("t"), Ok(i16::MAX));
    assert_eq!(Reader::new(&[0xff, 0xff, 0x03]).read_i16("t"), Ok(i16::MIN));
    assert_eq!(
        Reader::new(&[0x80, 0x80, 0x04]).read_i16("t"),
        Err(Error::invalid("t", 0, 32768))
    );

    // i32 and i64 extremes.
    let i32_min = [0xff, 0xff, 0xff, 0xff, 0x0f];
    assert_eq!(Reader::new(&i32_min).read_i32("t"), Ok(i32::MIN));
    let i64_min = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    assert_eq!(Reader::new(&i64_min).read_i64("t"), Ok(i64::MIN));
    for (value, bytes) in [
        (0i64, &[0x00][..]),
        (-1, &[0x01]),
        (1, &[0x02]),
        (-64, &[0x7f]),
        (64, &[0x80, 0x01]),
        (1_000_000_000, &[0x80, 0xa8, 0xd6, 0xb9, 0x07]),
    ] {
        let mut out = Vec::new();
        Writer::new(&mut out).write_i64(value);
        assert_eq!(out, bytes);
        // Also at the end of the input (the decoder's careful path) and inside a longer
        // one (its word-at-a-time path).
        assert_eq!(Reader::new(bytes).read_i64("t"), Ok(value));
        out.extend_from_slice(&[0xaa; 12]);
        assert_eq!(Reader::new(&out).read_i64("t"), Ok(value));
        if let Ok(value) = i32::try_from(value) {
            assert_eq!(Reader::new(bytes).read_i32("t"), Ok(value));
        }
    }
}

#[test]
fn varints_are_strict() {
    let padded = |bytes: &[u8]| {
        let mut v = bytes.to_vec();
        v.extend_from_slice(&[0; 12]);
        v
    };
    for bytes in [
        // overlong: a trailing zero group
        &[0x80, 0x00][..],
        &[0x81, 0x80, 0x00],
        // an i32 of six bytes, or whose fifth byte has more than 4 bits
        &[0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
        &[0xff, 0xff, 0xff, 0xff, 0x1f],
    ] {
        for input in [bytes.to_vec(), padded(bytes)] {
            assert!(
                matches!(
                    Reader::new(&input).read_i32("t"),
                    Err(Error::Invalid { .. })
                ),
                "{input:x?}"
            );
        }
    }
    for bytes in [
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02][..],
        &[0x80; 11],
    ] {
        for input in [bytes.to_vec(), padded(bytes)] {
            assert!(
                matches!(
                    Reader::new(&input).read_i64("t"),
                    Err(Error::Invalid { .. })
                ),
                "{input:x?}"
            );
        }
    }
    // Cut short.
    assert_eq!(
        Reader::new(&[0x80, 0x80]).read_i64("t"),
        Err(Error::truncated("t", 0, 3, 2))
    );
    let mut reader = Reader::new(&[0x01, 0x80]);
    reader.read_i32("t").unwrap();
    assert_eq!(reader.read_i32("t"), Err(Error::truncated("t", 1, 2, 1)));
}

#[test]
fn doubles_binary_strings_uuids() {
    let mut bytes = 1.5f64.to_le_bytes().to_vec();
    bytes.extend_from_slice(&[0x03, b'a', b'b', b'c', 0x02, 0xc3, 0xa9, 0x02, 0xff, 0xfe]);
    bytes.extend_from_slice(&[7; 16]);
    let mut reader = Reader::new(&bytes);
    assert_eq!(reader.read_double("t"), Ok(1.5));
    assert_eq!(reader.read_binary("t"), Ok(&b"abc"[..]));
    assert_eq!(reader.read_string("t"), Ok("é"));
    assert_eq!(reader.read_string("t"), Err(Error::invalid("t", 15, 0)));
    let mut reader = Reader::new(&bytes[18..]);
    assert_eq!(reader.read_uuid("t"), Ok([7; 16]));

    let mut out = Vec::new();
    let mut writer = Writer::new(&mut out);
    writer.write_double(1.5);
    writer.write_binary(b"abc").unwrap();
    writer.write_string("é").unwrap();
    writer.write_binary(&[0xff, 0xfe]).unwrap();
    writer.write_uuid(&[7; 16]);
    assert_eq!(out, bytes);

    // A length past the end, or past i32::MAX.
    assert_eq!(
        Reader::new(&[0x05, b'a']).read_binary("t"),
        Err(Error::truncated("t", 1, 5, 1))
    );
    assert_eq!(
        Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x0f]).read_binary("t"),
        Err(Error::invalid("t", 0, u32::MAX.into()))
    );
    assert_eq!(
        Reader::new(&[0; 7]).read_double("t"),
        Err(Error::truncated("t", 0, 8, 7))
    );
}

#[test]
fn list_headers() {
    // Short form: 3 i32.
    let mut reader = Reader::new(&[0x35, 0x02, 0x04, 0x06]);
    assert_eq!(
        reader.read_list_header("t"),
        Ok(ListHeader {
            element_type: Some(FieldType::I32),
            size: 3
        })
    );
    // Long form: 15 bytes; and a long form for a size that fits the short one, which
    // writers do not produce but readers accept.
    let mut bytes = vec![0xf3, 0x0f];
    bytes.extend_from_slice(&[1; 15]);
    assert_eq!(Vec::<i8>::read_from(&bytes), Ok((vec![1; 15], 17)));
    assert_eq!(
        Vec::<i8>::read_from(&[0xf3, 0x02, 5, 6]),
        Ok((vec![5, 6], 4))
    );
    // The empty list, with and without an element type.
    assert_eq!(Vec::<i64>::read_from(&[0x06]), Ok((vec![], 1)));
    assert_eq!(Vec::<i64>::read_from(&[0x00]), Ok((vec![], 1)));
    assert_eq!(
        Reader::new(&[0x00]).read_list_header("t"),
        Ok(ListHeader {
            element_type: None,
            size: 0
        })
    );
    // A set reads like a list.
    assert_eq!(
        Reader::new(&[0x2a, 0x00, 0x00]).read_list_header("t"),
        Ok(ListHeader {
            element_type: Some(FieldType::Set),
            size: 2
        })
    );
    // The wrong element type.
    assert_eq!(
        Vec::<i64>::read_from(&[0x15, 0x02]),
        Err(Error::invalid("list", 0, 0x15))
    );

    let mut out = Vec::new();
    let mut writer = Writer::new(&mut out);
    writer.write_list_header(FieldType::I32, 3).unwrap();
    writer.write_list_header(FieldType::Byte, 15).unwrap();
    writer.write_set_header(FieldType::Binary, 200).unwrap();
    writer
        .write_list_header(FieldType::BooleanFalse, 1)
        .unwrap();
    assert_eq!(out, [0x35, 0xf3, 0x0f, 0xf8, 0xc8, 0x01, 0x11]);
}

#[test]
fn list_sizes_are_checked_before_allocating() {
    // 2^31 - 1 elements of at least one byte each, with 10 bytes left.
    let mut bytes = vec![0xf5, 0xff, 0xff, 0xff, 0xff, 0x07];
    bytes.extend_from_slice(&[0; 10]);
    assert_eq!(
        Vec::<i32>::read_from(&bytes),
        Err(Error::truncated("list", 6, i32::MAX as usize, 10))
    );
    // Eight bytes each for doubles: 2 of them do not fit in 15 bytes.
    assert_eq!(
        Reader::new(&[0x27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).read_list_header("t"),
        Err(Error::truncated("t", 1, 16, 15))
    );
    // A size past i32::MAX.
    assert_eq!(
        Reader::new(&[0xf5, 0x80, 0x80, 0x80, 0x80, 0x08]).read_list_header("t"),
        Err(Error::invalid("t", 1, 1 << 31))
    );
    // Maps: two bytes an entry.
    assert_eq!(
        Reader::new(&[0x03, 0x55, 0, 0, 0, 0, 0]).read_map_header("t"),
        Err(Error::truncated("t", 2, 6, 5))
    );
}

#[test]
fn boolean_list_elements() {
    // Element type 1 (as Thrift's writers put it) or 2; values 1 true, 2 or 0 false.
    for header in [0x41, 0x42] {
        assert_eq!(
            Vec::<bool>::read_from(&[header, 1, 2, 0, 1]),
            Ok((vec![true, false, false, true], 5))
        );
    }
    assert_eq!(
        Vec::<bool>::read_from(&[0x21, 1, 3]),
        Err(Error::invalid("list", 2, 3))
    );
    let mut out = Vec::new();
    vec![true, false].write_to(&mut out).unwrap();
    assert_eq!(out, [0x21, 1, 2]);
}

#[test]
fn maps() {
    // The empty map is one byte; {1: "a", 2: "bc"} has a size, the key and value types,
    // then the entries.
    let bytes = [0x00, 0x02, 0x58, 0x02, 0x01, b'a', 0x04, 0x02, b'b', b'c'];
    let mut reader = Reader::new(&bytes);
    assert_eq!(
        reader.read_map_header("t"),
        Ok(MapHeader {
            key_type: None,
            value_type: None,
            size: 0
        })
    );
    assert_eq!(
        reader.read_map_header("t"),
        Ok(MapHeader {
            key_type: Some(FieldType::I32),
            value_type: Some(FieldType::Binary),
            size: 2
        })
    );
    assert_eq!(reader.read_i32("t"), Ok(1));
    assert_eq!(reader.read_string("t"), Ok("a"));
    assert_eq!(reader.read_i32("t"), Ok(2));
    assert_eq!(reader.read_string("t"), Ok("bc"));

    let mut out = Vec::new();
    let mut writer = Writer::new(&mut out);
    writer
        .write_map_header(FieldType::I32, FieldType::Binary, 0)
        .unwrap();
    writer
        .write_map_header(FieldType::I32, FieldType::Binary, 2)
        .unwrap();
    assert_eq!(out, bytes[..3]);
    // Boolean keys and values are written with the code of `true`.
    out.clear();
    Writer::new(&mut out)
        .write_map_header(FieldType::BooleanFalse, FieldType::BooleanFalse, 1)
        .unwrap();
    assert_eq!(out, [0x01, 0x11]);

    // Skipping a map of bool to list.
    let bytes = [0x01, 0x19, 0x02, 0x25, 0x02, 0x04, 0xee];
    let mut reader = Reader::new(&bytes);
    reader.skip_field(FieldType::Map).unwrap();
    assert_eq!(reader.position(), 6);
    assert_eq!(
        Reader::new(&[0x01, 0x0e]).read_map_header("t"),
        Err(Error::invalid("t", 1, 0x0e))
    );
}

/// A struct with a field of every type, nested three deep, as bytes.
fn every_type() -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    w.write_bool_field(1, 0, true);
    w.write_bool_field(2, 1, false);
    w.write_field_header(FieldType::Byte, 3, 2);
    w.write_i8(-5);
    w.write_field_header(FieldType::I16, 4, 3);
    w.write_i16(-300);
    w.write_field_header(FieldType::I32, 5, 4);
    w.write_i32(70_000);
    w.write_field_header(FieldType::I64, 6, 5);
    w.write_i64(-1 << 40);
    w.write_field_header(FieldType::Double, 7, 6);
    w.write_double(2.5);
    w.write_field_header(FieldType::Binary, 8, 7);
    w.write_binary(b"bytes").unwrap();
    w.write_field_header(FieldType::List, 9, 8);
    w.write_list_header(FieldType::Struct, 2).unwrap();
    {
        // A struct holding a struct holding a list of bools.
        w.write_field_header(FieldType::Struct, 1, 0);
        w.write_field_header(FieldType::List, 1, 0);
        w.write_list_header(FieldType::BooleanTrue, 3).unwrap();
        w.write_bool(true);
        w.write_bool(false);
        w.write_bool(true);
        w.write_stop();
        w.write_stop();
        w.write_stop();
    }
    w.write_field_header(FieldType::Set, 10, 9);
    w.write_set_header(FieldType::Double, 1).unwrap();
    w.write_double(1.0);
    w.write_field_header(FieldType::Map, 11, 10);
    w.write_map_header(FieldType::Binary, FieldType::List, 1)
        .unwrap();
    w.write_binary(b"k").unwrap();
    w.write_list_header(FieldType::I64, 2).unwrap();
    w.write_i64(1);
    w.write_i64(2);
    w.write_field_header(FieldType::Struct, 12, 11);
    w.write_stop();
    w.write_field_header(FieldType::Uuid, 13, 12);
    w.write_uuid(&[0xab; 16]);
    w.write_field_header(FieldType::List, 14, 13);
    w.write_list_header(FieldType::List, 1).unwrap();
    w.write_list_header(FieldType::Map, 1).unwrap();
    w.write_map_header(FieldType::I32, FieldType::Struct, 0)
        .unwrap();
    w.write_stop();
    out
}

#[test]
fn skipping_any_value() {
    let bytes = every_type();
    let mut reader = Reader::new(&bytes);
    reader.skip_field(FieldType::Struct).unwrap();
    assert_eq!(reader.position(), bytes.len());
    assert_eq!(reader.depth(), 0);
    let mut reader = Reader::new(&bytes);
    assert_eq!(reader.skip_field_raw(FieldType::Struct), Ok(&bytes[..]));
    // Every strict prefix is an error.
    for end in 0..bytes.len() {
        assert!(
            Reader::new(&bytes[..end])
                .skip_field(FieldType::Struct)
                .is_err(),
            "{end}"
        );
    }
    // Elements: a boolean takes a byte in a list, nothing as a field.
    let mut reader = Reader::new(&[1, 2]);
    reader.skip_element(FieldType::BooleanTrue).unwrap();
    reader.skip_field(FieldType::BooleanTrue).unwrap();
    assert_eq!(reader.position(), 1);
}

#[test]
fn nesting_is_limited() {
    // 100 structs, each the first field of the one around it.
    let mut deep = vec![0x1c; 99];
    deep.extend_from_slice(&[0x00; 100]);
    assert_eq!(
        Reader::new(&deep).skip_field(FieldType::Struct),
        Err(Error::LimitExceeded {
            what: "thrift nesting depth",
            requested: 65,
            limit: 64
        })
    );
    let mut reader = Reader::with_max_depth(&deep, 100);
    reader.skip_field(FieldType::Struct).unwrap();
    assert_eq!(reader.position(), deep.len());
    assert!(
        Reader::with_max_depth(&deep, 99)
            .skip_field(FieldType::Struct)
            .is_err()
    );

    // Lists of lists count too.
    let mut lists = vec![0x19; 80];
    lists.push(0x00);
    assert!(matches!(
        Reader::new(&lists).skip_field(FieldType::List),
        Err(Error::LimitExceeded { .. })
    ));
    assert!(
        Reader::with_max_depth(&lists, 81)
            .skip_field(FieldType::List)
            .is_ok()
    );
}

#[test]
fn writer_limits() {
    // Sizes above i32::MAX cannot be written; nothing is.
    let mut out = vec![1, 2];
    let mut writer = Writer::new(&mut out);
    assert_eq!(
        writer.write_list_header(FieldType::I32, 1 << 31),
        Err(Error::LimitExceeded {
            what: "thrift list size",
            requested: 1 << 31,
            limit: i32::MAX as u64
        })
    );
    assert!(
        writer
            .write_map_header(FieldType::I32, FieldType::I32, usize::MAX)
            .is_err()
    );
    assert_eq!(writer.output(), [1, 2]);
}
