//! JSON text into values, for `convert`: one JSON Lines line at a time.
//!
//! Hand-written rather than `serde_json` for two reasons: objects keep their keys in the
//! order written (a schema inferred from them follows it), and numbers keep their text,
//! so that each is parsed by the type of the column it goes to (an INT64 exactly, a
//! FLOAT straight to 32 bits, a DECIMAL digit by digit) rather than through an `f64`.
//!
//! ```text
//! value  := object | array | string | number | "true" | "false" | "null"
//! object := "{" [string ":" value ("," string ":" value)*] "}"
//! array  := "[" [value ("," value)*] "]"
//! number := "-"? ("0" | [1-9][0-9]*) ("." [0-9]+)? ([eE] [+-]? [0-9]+)?
//! ```

/// A JSON value. Objects keep their keys in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its text (checked to follow the grammar).
    Number(String),
    /// A string, unescaped.
    Str(String),
    /// An array.
    Array(Vec<Json>),
    /// An object's keys and values, in order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// What the value is, for messages: "a number", "an object".
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool(_) => "a boolean",
            Self::Number(_) => "a number",
            Self::Str(_) => "a string",
            Self::Array(_) => "an array",
            Self::Object(_) => "an object",
        }
    }
}

/// Deeper nesting than this is refused (a parser that recurses must stop somewhere).
const MAX_DEPTH: usize = 200;

/// Parses `text` as one JSON value (with whitespace around it).
///
/// # Errors
///
/// Where the text stops being JSON (a column, counted in characters from 1) and why.
pub(crate) fn parse(text: &str) -> Result<Json, String> {
    let mut parser = Parser { text, pos: 0 };
    let value = parser.value(0)?;
    parser.whitespace();
    if parser.pos < text.len() {
        return Err(parser.error("the end of the value"));
    }
    Ok(value)
}

/// Whether `text` is a JSON number, and if so whether it is an integer (no fraction, no
/// exponent).
pub(crate) fn number_kind(text: &str) -> Option<NumberKind> {
    let mut parser = Parser { text, pos: 0 };
    let integer = parser.number().ok()?;
    (parser.pos == text.len()).then_some(if integer {
        NumberKind::Integer
    } else {
        NumberKind::Fraction
    })
}

/// The two kinds of JSON number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberKind {
    /// Digits alone, with an optional minus.
    Integer,
    /// With a fraction or an exponent.
    Fraction,
}

struct Parser<'t> {
    text: &'t str,
    /// A byte offset, always at a character boundary.
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn error(&self, expected: &str) -> String {
        let column = self.text.get(..self.pos).map_or(0, |t| t.chars().count()) + 1;
        match self.text.get(self.pos..).and_then(|t| t.chars().next()) {
            Some(c) => format!("not JSON: expected {expected} at column {column}, found {c:?}"),
            None => format!("not JSON: expected {expected} at column {column}, found the end"),
        }
    }

    fn whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self
            .text
            .get(self.pos..)
            .is_some_and(|t| t.starts_with(word))
        {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error("a value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "not JSON for pqkit: nested more than {MAX_DEPTH} deep"
            ));
        }
        self.whitespace();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::Str),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                self.number()?;
                Ok(Json::Number(
                    self.text
                        .get(start..self.pos)
                        .unwrap_or_default()
                        .to_owned(),
                ))
            }
            _ => Err(self.error("a value")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.pos += 1;
        let mut fields = Vec::new();
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Object(fields));
        }
        loop {
            self.whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error("a key"));
            }
            let key = self.string()?;
            self.whitespace();
            if self.peek() != Some(b':') {
                return Err(self.error("':'"));
            }
            self.pos += 1;
            let value = self.value(depth + 1)?;
            fields.push((key, value));
            self.whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Object(fields));
                }
                _ => return Err(self.error("',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.pos += 1;
        let mut items = Vec::new();
        self.whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error("',' or ']'")),
            }
        }
    }

    /// A string, the opening quote at `pos`.
    fn string(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            // Copy up to the next quote, backslash or control character: all ASCII, so
            // the slice ends at a character boundary.
            let rest = self.text.get(self.pos..).unwrap_or_default();
            let run = rest
                .bytes()
                .position(|b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(rest.len());
            out.push_str(rest.get(..run).unwrap_or_default());
            self.pos += run;
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => return Err(self.error("no control character in a string")),
                None => return Err(self.error("'\"'")),
            }
        }
    }

    /// The escape after a backslash.
    fn escape(&mut self, out: &mut String) -> Result<(), String> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let high = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&high) {
                    // A surrogate pair: the low half must follow.
                    if self
                        .text
                        .get(self.pos..)
                        .is_some_and(|t| t.starts_with("\\u"))
                    {
                        self.pos += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..0xE000).contains(&low) {
                            return Err(self.error("the low half of a surrogate pair"));
                        }
                        0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        return Err(self.error("the low half of a surrogate pair"));
                    }
                } else {
                    high
                };
                let Some(c) = char::from_u32(code) else {
                    return Err(self.error("a character, not a lone surrogate"));
                };
                out.push(c);
                return Ok(());
            }
            _ => return Err(self.error("an escape")),
        };
        self.pos += 1;
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("four hex digits"))?;
        let value = u32::from_str_radix(digits, 16).map_err(|_| self.error("four hex digits"))?;
        self.pos += 4;
        Ok(value)
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// A number; whether it is an integer.
    fn number(&mut self) -> Result<bool, String> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("a digit")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            integer = false;
            if self.digits() == 0 {
                return Err(self.error("a digit"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            integer = false;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("a digit"));
            }
        }
        Ok(integer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Json {
        Json::Str(text.into())
    }

    #[test]
    fn values_parse_with_keys_in_order_and_numbers_as_text() {
        let value =
            parse(r#" {"b": [1, -2.5e3, true, null], "a": {"x": "y\u00e9\n\"\ud83d\ude00"}} "#)
                .unwrap();
        assert_eq!(
            value,
            Json::Object(vec![
                (
                    "b".into(),
                    Json::Array(vec![
                        Json::Number("1".into()),
                        Json::Number("-2.5e3".into()),
                        Json::Bool(true),
                        Json::Null
                    ])
                ),
                ("a".into(), Json::Object(vec![("x".into(), s("yé\n\"😀"))])),
            ])
        );
        assert_eq!(parse("\"π\"").unwrap(), s("π"));
        assert_eq!(parse("[]").unwrap(), Json::Array(vec![]));
        assert_eq!(parse("{}").unwrap(), Json::Object(vec![]));
    }

    #[test]
    fn bad_text_is_an_error_that_says_where() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            "-",
            "1e",
            "tru",
            "\"a",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "{\"a\":1} x",
            "\"\t\"",
            "{1:2}",
            "[1 2]",
            "nul",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            parse("[1, x]").unwrap_err(),
            "not JSON: expected a value at column 5, found 'x'"
        );
        let deep = "[".repeat(10_000);
        assert!(parse(&deep).unwrap_err().contains("nested"));
    }

    #[test]
    fn numbers_are_told_apart() {
        assert_eq!(number_kind("-12"), Some(NumberKind::Integer));
        assert_eq!(number_kind("1.5"), Some(NumberKind::Fraction));
        assert_eq!(number_kind("1e5"), Some(NumberKind::Fraction));
        for not in ["", "1.", "+1", "0x1", "NaN", "inf", "1 ", "--1"] {
            assert_eq!(number_kind(not), None, "{not:?}");
        }
    }
}
