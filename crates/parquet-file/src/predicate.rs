//! Row filters: a small expression language, evaluated on rows, and on row groups through
//! their statistics and Bloom filters to skip the ones that cannot match.

use std::cmp::Ordering;

use parquet_thrift::Type;

use crate::error::{Context, Error, Result};
use crate::field::Field;
use crate::page_index::{PageStatistics, RowSelection, page_rows};
use crate::reader::FileReader;
use crate::rows::Row;
use crate::schema::{ColumnDescriptor, LogicalType, Schema};
use crate::source::Source;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// A literal of the language.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// An integer.
    Int(i128),
    /// A number with a fraction or exponent.
    Float(f64),
    /// A quoted string.
    Str(String),
    /// `true` or `false`.
    Bool(bool),
}

/// A predicate on rows:
///
/// ```text
/// expr  := and ("or" and)*
/// and   := unary ("and" unary)*
/// unary := "not" unary | "(" expr ")" | path op literal | path "is" ["not"] "null"
/// op    := "=" | "!=" | "<" | "<=" | ">" | ">="
/// literal := integer | number | "string" | 'string' | true | false
/// ```
///
/// A path is a dotted field path (`a.b.c`). Comparisons of a null, or of values of
/// different kinds (a string with a number), are false.
///
/// ```
/// use parquet_file::Predicate;
///
/// let p = Predicate::parse(r#"id >= 10 and (name = "x" or score is null)"#)?;
/// assert!(Predicate::parse("id >=").is_err());
/// # Ok::<(), parquet_file::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Predicate {
    /// Both hold.
    And(Box<Predicate>, Box<Predicate>),
    /// Either holds.
    Or(Box<Predicate>, Box<Predicate>),
    /// It does not hold.
    Not(Box<Predicate>),
    /// `path op literal`.
    Compare {
        /// The field's dotted path.
        path: String,
        /// The operator.
        op: Op,
        /// The value compared with.
        literal: Literal,
    },
    /// `path is null` (or `is not null` when `negated`).
    IsNull {
        /// The field's dotted path.
        path: String,
        /// Whether this is `is not null`.
        negated: bool,
    },
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Str(String),
    Num(String),
    Op(Op),
    Open,
    Close,
}

fn tokenize(text: &str) -> Result<Vec<Token>> {
    let bad = |message: String| Error::argument(format!("--where: {message}"));
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(at, c)) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '(' => {
                chars.next();
                tokens.push(Token::Open);
            }
            ')' => {
                chars.next();
                tokens.push(Token::Close);
            }
            '"' | '\'' => {
                chars.next();
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some((_, q)) if q == c => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, e)) => s.push(e),
                            None => return Err(bad(format!("unterminated string at {at}"))),
                        },
                        Some((_, ch)) => s.push(ch),
                        None => return Err(bad(format!("unterminated string at {at}"))),
                    }
                }
                tokens.push(Token::Str(s));
            }
            '=' | '!' | '<' | '>' => {
                chars.next();
                let eq = chars.peek().is_some_and(|&(_, n)| n == '=');
                if eq {
                    chars.next();
                }
                tokens.push(Token::Op(match (c, eq) {
                    ('=', _) => Op::Eq,
                    ('!', true) => Op::Ne,
                    ('<', false) => Op::Lt,
                    ('<', true) => Op::Le,
                    ('>', false) => Op::Gt,
                    ('>', true) => Op::Ge,
                    _ => return Err(bad(format!("unexpected '!' at {at}"))),
                }));
            }
            c if c.is_ascii_digit() || c == '-' || c == '+' => {
                let mut s = String::new();
                while let Some(&(_, d)) = chars.peek() {
                    if d.is_ascii_alphanumeric() || matches!(d, '.' | '-' | '+') {
                        s.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                tokens.push(Token::Num(s));
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut s = String::new();
                while let Some(&(_, d)) = chars.peek() {
                    if d.is_alphanumeric() || matches!(d, '_' | '.') {
                        s.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                tokens.push(Token::Word(s));
            }
            other => return Err(bad(format!("unexpected {other:?} at {at}"))),
        }
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

impl Parser {
    fn peek_word(&self, word: &str) -> bool {
        matches!(self.tokens.get(self.pos), Some(Token::Word(w)) if w.eq_ignore_ascii_case(word))
    }

    fn error(&self, what: &str) -> Error {
        Error::argument(format!(
            "--where: expected {what} at token {}",
            self.pos + 1
        ))
    }

    fn expr(&mut self) -> Result<Predicate> {
        let mut left = self.and()?;
        while self.peek_word("or") {
            self.pos += 1;
            left = Predicate::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Predicate> {
        let mut left = self.unary()?;
        while self.peek_word("and") {
            self.pos += 1;
            left = Predicate::And(Box::new(left), Box::new(self.unary()?));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Predicate> {
        if self.peek_word("not") {
            self.pos += 1;
            return Ok(Predicate::Not(Box::new(self.unary()?)));
        }
        match self.tokens.get(self.pos).cloned() {
            Some(Token::Open) => {
                self.pos += 1;
                let inner = self.expr()?;
                if self.tokens.get(self.pos) != Some(&Token::Close) {
                    return Err(self.error("')'"));
                }
                self.pos += 1;
                Ok(inner)
            }
            Some(Token::Word(path)) => {
                self.pos += 1;
                if self.peek_word("is") {
                    self.pos += 1;
                    let negated = self.peek_word("not");
                    if negated {
                        self.pos += 1;
                    }
                    if !self.peek_word("null") {
                        return Err(self.error("null"));
                    }
                    self.pos += 1;
                    return Ok(Predicate::IsNull { path, negated });
                }
                let Some(Token::Op(op)) = self.tokens.get(self.pos).cloned() else {
                    return Err(self.error("a comparison operator"));
                };
                self.pos += 1;
                let literal = match self.tokens.get(self.pos).cloned() {
                    Some(Token::Str(s)) => Literal::Str(s),
                    Some(Token::Num(n)) => n
                        .parse::<i128>()
                        .map(Literal::Int)
                        .or_else(|_| n.parse::<f64>().map(Literal::Float))
                        .map_err(|_| self.error("a number"))?,
                    Some(Token::Word(w)) if w.eq_ignore_ascii_case("true") => Literal::Bool(true),
                    Some(Token::Word(w)) if w.eq_ignore_ascii_case("false") => Literal::Bool(false),
                    _ => return Err(self.error("a literal")),
                };
                self.pos += 1;
                Ok(Predicate::Compare { path, op, literal })
            }
            _ => Err(self.error("a field path, 'not' or '('")),
        }
    }
}

impl Predicate {
    /// Parses an expression.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Argument`](crate::ErrorKind::Argument) for text that is not an
    /// expression of the language.
    pub fn parse(text: &str) -> Result<Self> {
        let mut parser = Parser {
            tokens: tokenize(text)?,
            pos: 0,
        };
        let predicate = parser.expr()?;
        if parser.pos != parser.tokens.len() {
            return Err(parser.error("the end of the expression"));
        }
        Ok(predicate)
    }

    /// The dotted paths the predicate reads.
    pub fn paths(&self) -> Vec<&str> {
        match self {
            Self::And(a, b) | Self::Or(a, b) => {
                let mut paths = a.paths();
                paths.extend(b.paths());
                paths
            }
            Self::Not(a) => a.paths(),
            Self::Compare { path, .. } | Self::IsNull { path, .. } => vec![path],
        }
    }

    /// Checks that every path names a field of `schema`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Argument`](crate::ErrorKind::Argument) naming the first unknown path.
    pub fn check(&self, schema: &Schema) -> Result<()> {
        for path in self.paths() {
            if schema.columns_under(path).is_empty() {
                return Err(Error::argument(format!(
                    "--where: no column {path:?} in the schema"
                )));
            }
        }
        Ok(())
    }

    /// Whether `row` satisfies the predicate.
    pub fn matches(&self, row: &Row) -> bool {
        match self {
            Self::And(a, b) => a.matches(row) && b.matches(row),
            Self::Or(a, b) => a.matches(row) || b.matches(row),
            Self::Not(a) => !a.matches(row),
            Self::IsNull { path, negated } => {
                let null = lookup(row, path).is_none_or(|f| *f == Field::Null);
                null != *negated
            }
            Self::Compare { path, op, literal } => lookup(row, path)
                .and_then(|f| compare(f, literal))
                .is_some_and(|ordering| holds(*op, ordering)),
        }
    }

    /// Whether row group `row_group` might hold a matching row, judging by its
    /// statistics and Bloom filters (false only when it certainly holds none).
    ///
    /// # Errors
    ///
    /// A Bloom filter that cannot be read.
    pub fn might_match<S: Source>(&self, reader: &FileReader<S>, row_group: usize) -> Result<bool> {
        Ok(match self {
            Self::And(a, b) => {
                a.might_match(reader, row_group)? && b.might_match(reader, row_group)?
            }
            Self::Or(a, b) => {
                a.might_match(reader, row_group)? || b.might_match(reader, row_group)?
            }
            Self::Not(_) => true,
            Self::IsNull { path, negated } => {
                let Some(column) = reader.schema().column_index(path) else {
                    return Ok(true);
                };
                let meta = reader.metadata();
                let Ok(Some(stats)) = meta.column_statistics(row_group, column) else {
                    return Ok(true);
                };
                let rows = u64::try_from(meta.row_groups()[row_group].num_rows).unwrap_or(0);
                let descriptor = reader.schema().column(column);
                match (stats.null_count, negated) {
                    (Some(0), false) => false,
                    (Some(nulls), true) if descriptor.max_rep_level == 0 => nulls < rows,
                    _ => true,
                }
            }
            Self::Compare { path, op, literal } => {
                let Some(column) = reader.schema().column_index(path) else {
                    return Ok(true);
                };
                if reader.schema().column(column).max_rep_level > 0 {
                    return Ok(true);
                }
                let in_range = reader
                    .metadata()
                    .column_statistics(row_group, column)
                    .ok()
                    .flatten()
                    .is_none_or(|s| range_might_hold(s.min.as_ref(), s.max.as_ref(), *op, literal));
                if !in_range {
                    return Ok(false);
                }
                if *op == Op::Eq {
                    return bloom_might_hold(reader, row_group, column, literal);
                }
                true
            }
        })
    }

    /// The rows of row group `row_group` that might match, judging by the page index:
    /// the rows of the pages whose statistics do not rule a match out (every row where
    /// the columns have no page index). Read with
    /// [`Projection::select_rows`](crate::Projection::select_rows), the reader then skips
    /// the other pages; the rows read must still be tested with
    /// [`matches`](Self::matches).
    ///
    /// # Errors
    ///
    /// A page index that cannot be read, or column and offset indexes that disagree on
    /// the number of pages.
    pub fn row_selection<S: Source>(
        &self,
        reader: &FileReader<S>,
        row_group: usize,
    ) -> Result<RowSelection> {
        Ok(match self {
            Self::And(a, b) => a
                .row_selection(reader, row_group)?
                .intersect(&b.row_selection(reader, row_group)?),
            Self::Or(a, b) => a
                .row_selection(reader, row_group)?
                .union(&b.row_selection(reader, row_group)?),
            Self::Not(_) => RowSelection::all(group_rows(reader, row_group)),
            Self::IsNull { path, negated } => {
                pages_where(reader, row_group, path, |page| match negated {
                    false => page.statistics.null_count != Some(0),
                    true => !page.null_page,
                })?
            }
            Self::Compare { path, op, literal } => pages_where(reader, row_group, path, |page| {
                !page.null_page
                    && range_might_hold(
                        page.statistics.min.as_ref(),
                        page.statistics.max.as_ref(),
                        *op,
                        literal,
                    )
            })?,
        })
    }
}

fn group_rows<S: Source>(reader: &FileReader<S>, row_group: usize) -> u64 {
    u64::try_from(reader.metadata().row_groups()[row_group].num_rows).unwrap_or(0)
}

/// The rows of the pages of the column at `path` that `keep` keeps (every row when the
/// column is repeated or has no page index).
fn pages_where<S: Source>(
    reader: &FileReader<S>,
    row_group: usize,
    path: &str,
    keep: impl Fn(&PageStatistics) -> bool,
) -> Result<RowSelection> {
    let rows = group_rows(reader, row_group);
    let all = RowSelection::all(rows);
    let Some(column) = reader.schema().column_index(path) else {
        return Ok(all);
    };
    // A page of a repeated column holds parts of records, not whole fields.
    if reader.schema().column(column).max_rep_level > 0 {
        return Ok(all);
    }
    let Some(pages) = reader.column_index(row_group, column)? else {
        return Ok(all);
    };
    let Some(offsets) = reader.offset_index(row_group, column)? else {
        return Ok(all);
    };
    if pages.pages.len() != offsets.page_locations.len() {
        return Err(Error::invalid(format!(
            "the column index has {} pages, the offset index {}",
            pages.pages.len(),
            offsets.page_locations.len()
        )))
        .in_row_group(row_group)
        .in_column(path);
    }
    Ok(RowSelection::from_ranges(
        page_rows(&offsets, rows)
            .zip(&pages.pages)
            .filter(|(_, page)| keep(page))
            .map(|(range, _)| range),
    ))
}

fn lookup<'r>(row: &'r Row, path: &str) -> Option<&'r Field> {
    let mut parts = path.split('.');
    let mut field = row.get(parts.next()?)?;
    for part in parts {
        let Field::Group(fields) = field else {
            return None;
        };
        field = fields.iter().find(|(n, _)| &**n == part).map(|(_, f)| f)?;
    }
    Some(field)
}

const fn holds(op: Op, ordering: Ordering) -> bool {
    match op {
        Op::Eq => ordering.is_eq(),
        Op::Ne => ordering.is_ne(),
        Op::Lt => ordering.is_lt(),
        Op::Le => ordering.is_le(),
        Op::Gt => ordering.is_gt(),
        Op::Ge => ordering.is_ge(),
    }
}

/// How `field` compares with `literal`, when they are of comparable kinds.
#[allow(clippy::cast_precision_loss)]
fn compare(field: &Field, literal: &Literal) -> Option<Ordering> {
    let number = |value: f64| match literal {
        Literal::Int(i) => value.partial_cmp(&(*i as f64)),
        Literal::Float(f) => value.partial_cmp(f),
        _ => None,
    };
    match field {
        Field::Int(v) => match literal {
            Literal::Int(i) => Some(i128::from(*v).cmp(i)),
            _ => number(*v as f64),
        },
        Field::UInt(v) => match literal {
            Literal::Int(i) => Some(i128::from(*v).cmp(i)),
            _ => number(*v as f64),
        },
        Field::Float(v) => number(f64::from(*v)),
        Field::Double(v) => number(*v),
        Field::Float16(bits) => number(half::f16::from_bits(*bits).to_f64()),
        Field::Decimal { unscaled, scale } => match literal {
            Literal::Int(i) => 10_i128
                .checked_pow(*scale)
                .and_then(|p| i.checked_mul(p))
                .map(|scaled| unscaled.cmp(&scaled)),
            _ => number(*unscaled as f64 / 10_f64.powi(i32::try_from(*scale).ok()?)),
        },
        Field::Date(v) => match literal {
            Literal::Int(i) => Some(i128::from(*v).cmp(i)),
            _ => None,
        },
        Field::Time { value, .. } => match literal {
            Literal::Int(i) => Some(i128::from(*value).cmp(i)),
            _ => None,
        },
        Field::Timestamp { value, .. } => match literal {
            Literal::Int(i) => Some(value.cmp(i)),
            _ => None,
        },
        Field::Str(s) => match literal {
            Literal::Str(l) => Some(s.as_str().cmp(l.as_str())),
            _ => None,
        },
        Field::Bytes(b) => match literal {
            Literal::Str(l) => Some(b.as_slice().cmp(l.as_bytes())),
            _ => None,
        },
        Field::Bool(b) => match literal {
            Literal::Bool(l) => Some(b.cmp(l)),
            _ => None,
        },
        _ => None,
    }
}

fn range_might_hold(min: Option<&Field>, max: Option<&Field>, op: Op, literal: &Literal) -> bool {
    let lo = min.and_then(|m| compare(m, literal));
    let hi = max.and_then(|m| compare(m, literal));
    match op {
        Op::Eq => lo.is_none_or(Ordering::is_le) && hi.is_none_or(Ordering::is_ge),
        Op::Ne => !(lo == Some(Ordering::Equal) && hi == Some(Ordering::Equal)),
        Op::Lt => lo.is_none_or(Ordering::is_lt),
        Op::Le => lo.is_none_or(Ordering::is_le),
        Op::Gt => hi.is_none_or(Ordering::is_gt),
        Op::Ge => hi.is_none_or(Ordering::is_ge),
    }
}

fn bloom_might_hold<S: Source>(
    reader: &FileReader<S>,
    row_group: usize,
    column: usize,
    literal: &Literal,
) -> Result<bool> {
    let Some(plain) = literal.plain_bytes(reader.schema().column(column)) else {
        return Ok(true);
    };
    Ok(match reader.bloom_filter(row_group, column)? {
        Some(filter) => filter.check(plain.as_slice()),
        None => true,
    })
}

impl Literal {
    /// The PLAIN bytes (without a byte array's length) that a value of `column` equal to
    /// this literal is stored, and Bloom-hashed, as; `None` when no single stored value
    /// corresponds (another kind of literal, a value out of the type's range, a DECIMAL
    /// whose unscaled value differs from the literal, a float zero or NaN whose equal
    /// values have several bit patterns).
    pub fn plain_bytes(&self, column: &ColumnDescriptor) -> Option<Vec<u8>> {
        use LogicalType as L;
        let integer = matches!(
            column.logical_type,
            L::None | L::Integer { .. } | L::Date | L::Time { .. } | L::Timestamp { .. }
        );
        let bytes = matches!(
            column.logical_type,
            L::None | L::String | L::Enum | L::Json | L::Bson
        );
        #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
        let float = |l: &Self| {
            match l {
                Self::Int(i) => Some(*i as f64),
                Self::Float(f) => Some(*f),
                _ => None,
            }
            .filter(|f| *f != 0.0 && !f.is_nan())
        };
        match (column.physical_type, self) {
            (Type::BOOLEAN, Self::Bool(b)) => Some(vec![u8::from(*b)]),
            (Type::INT32, Self::Int(i)) if integer => {
                i32::try_from(*i).ok().map(|v| v.to_le_bytes().to_vec())
            }
            (Type::INT64, Self::Int(i)) if integer => {
                i64::try_from(*i).ok().map(|v| v.to_le_bytes().to_vec())
            }
            #[allow(clippy::cast_possible_truncation)]
            (Type::FLOAT, l) if column.logical_type == L::None => {
                float(l).map(|f| (f as f32).to_le_bytes().to_vec())
            }
            (Type::DOUBLE, l) if column.logical_type == L::None => {
                float(l).map(|f| f.to_le_bytes().to_vec())
            }
            (Type::BYTE_ARRAY, Self::Str(s)) if bytes => Some(s.as_bytes().to_vec()),
            (Type::FIXED_LEN_BYTE_ARRAY, Self::Str(s))
                if column.logical_type == L::None && s.len() == column.type_length =>
            {
                Some(s.as_bytes().to_vec())
            }
            _ => None,
        }
    }
}
