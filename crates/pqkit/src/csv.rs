//! CSV records, as RFC 4180 writes them and `cat --format csv` prints them: fields
//! separated by commas, a field in double quotes when it holds a comma, a quote (doubled)
//! or a line break, records ended by LF or CRLF.

use std::io::BufRead;

/// Reads records from CSV text.
pub(crate) struct Reader<R> {
    input: R,
    line: String,
    /// The number of the last line read, from 1.
    line_number: u64,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input`.
    pub(crate) fn new(input: R) -> Self {
        Self {
            input,
            line: String::new(),
            line_number: 0,
        }
    }

    /// Reads one line into `self.line`, without its line ending; false at the end.
    fn read_line(&mut self) -> Result<bool, String> {
        self.line.clear();
        let n = self
            .input
            .read_line(&mut self.line)
            .map_err(|e| format!("line {}: {e}", self.line_number + 1))?;
        if n == 0 {
            return Ok(false);
        }
        self.line_number += 1;
        if self.line.ends_with('\n') {
            self.line.pop();
            if self.line.ends_with('\r') {
                self.line.pop();
            }
        }
        if self.line_number == 1 && self.line.starts_with('\u{feff}') {
            self.line.drain(..'\u{feff}'.len_utf8());
        }
        Ok(true)
    }

    /// Reads the next record into `fields`; the number of the line it starts on, or
    /// `None` at the end of the input. An empty line is a record of one empty field.
    ///
    /// # Errors
    ///
    /// A line that is not UTF-8 or cannot be read, a quoted field that is not closed
    /// before the end, or text after a field's closing quote.
    pub(crate) fn next_record(&mut self, fields: &mut Vec<String>) -> Result<Option<u64>, String> {
        fields.clear();
        if !self.read_line()? {
            return Ok(None);
        }
        let start = self.line_number;
        let mut field = String::new();
        // Whether the field being read is quoted, and whether its quote is still open.
        let mut quoted = false;
        let mut open = false;
        loop {
            let mut chars = self.line.chars().peekable();
            while let Some(c) = chars.next() {
                if open {
                    if c == '"' {
                        if chars.peek() == Some(&'"') {
                            chars.next();
                            field.push('"');
                        } else {
                            open = false;
                        }
                    } else {
                        field.push(c);
                    }
                } else if c == ',' {
                    fields.push(std::mem::take(&mut field));
                    quoted = false;
                } else if quoted {
                    return Err(format!(
                        "line {}: {c:?} after the closing quote of a field",
                        self.line_number
                    ));
                } else if c == '"' && field.is_empty() {
                    quoted = true;
                    open = true;
                } else {
                    field.push(c);
                }
            }
            if !open {
                break;
            }
            // A line break inside quotes is part of the field.
            if !self.read_line()? {
                return Err(format!(
                    "line {start}: a quoted field that is not closed before the end"
                ));
            }
            field.push('\n');
        }
        fields.push(field);
        Ok(Some(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(text: &str) -> Result<Vec<(u64, Vec<String>)>, String> {
        let mut reader = Reader::new(text.as_bytes());
        let mut out = Vec::new();
        let mut fields = Vec::new();
        while let Some(line) = reader.next_record(&mut fields)? {
            out.push((line, fields.clone()));
        }
        Ok(out)
    }

    #[test]
    fn records_split_as_rfc_4180_says() {
        let text = "\u{feff}a,b,c\r\n1,\"x,\"\"y\"\"\",\n\"multi\nline\",,\"\"\n\nlast";
        let got = records(text).unwrap();
        let fields = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            got,
            vec![
                (1, fields(&["a", "b", "c"])),
                (2, fields(&["1", "x,\"y\"", ""])),
                (3, fields(&["multi\nline", "", ""])),
                (5, fields(&[""])),
                (6, fields(&["last"])),
            ]
        );
    }

    #[test]
    fn broken_quotes_are_errors() {
        assert_eq!(
            records("a\n\"open\nstill").unwrap_err(),
            "line 2: a quoted field that is not closed before the end"
        );
        assert_eq!(
            records("\"a\"b").unwrap_err(),
            "line 1: 'b' after the closing quote of a field"
        );
        assert!(records("a\n\u{0}\u{80}").is_ok());
        let not_utf8: &[u8] = b"a\n\xff\n";
        let mut reader = Reader::new(not_utf8);
        let mut fields = Vec::new();
        assert!(reader.next_record(&mut fields).is_ok());
        assert!(
            reader
                .next_record(&mut fields)
                .unwrap_err()
                .starts_with("line 2: ")
        );
    }
}
