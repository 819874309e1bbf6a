//! Schema text in the message-type syntax: parsing never panics, and a schema that parses
//! prints as text that parses back to the same text and the same columns (the same
//! meaning: a default the text spells out, such as a GEOGRAPHY's CRS, may come back
//! given rather than left out).
//!
//! Shared by the fuzz target `schema_parse` and by the replay test
//! `crates/parquet-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/schema_parse/` through [`run`].

use parquet_file::Schema;

/// Runs one input (its bytes as UTF-8, invalid sequences replaced).
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(schema) = Schema::parse(&text) else {
        return;
    };
    let printed = schema.to_string();
    let again = Schema::parse(&printed)
        .unwrap_or_else(|e| panic!("printed schema does not parse: {e}\n{printed}"));
    assert_eq!(again.to_string(), printed);
    let shape = |schema: &Schema| -> Vec<_> {
        schema
            .columns()
            .iter()
            .map(|c| {
                let levels = (c.max_def_level, c.max_rep_level);
                (c.path.clone(), c.physical_type, c.type_length, levels)
            })
            .collect()
    };
    assert_eq!(shape(&again), shape(&schema));
}
