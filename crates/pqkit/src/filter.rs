//! The text of `--where` and of column lists: parsed into `parquet-file`'s values, with
//! dotted paths resolved against the schema (a Parquet schema's groups or an ORC type's
//! structs, through [`Names`]).
//!
//! ```text
//! expr  := and ("or" and)*
//! and   := unary ("and" unary)*
//! unary := "not" unary | "(" expr ")" | path op literal | path "is" ["not"] "null"
//! op    := "=" | "!=" | "<" | "<=" | ">" | ">="
//! literal := integer | number | "string" | 'string' | true | false
//! ```

use orc_file::{Kind, TypeDescription};
use parquet_file::{ColumnPath, Literal, NodeKind, Op, Predicate, Schema};

use crate::Failure;

/// A tree of named fields that dotted paths resolve against: a Parquet schema (its
/// groups) or an ORC type (its structs).
pub(crate) trait Names {
    /// A node of the tree.
    type Node: Copy;

    /// The root (the message, or the file's struct).
    fn root(&self) -> Self::Node;

    /// The named fields directly under `node` (none under a node that is not a group
    /// or struct).
    fn fields(&self, node: Self::Node) -> Vec<(&str, Self::Node)>;
}

impl Names for Schema {
    type Node = usize;

    fn root(&self) -> usize {
        0
    }

    fn fields(&self, node: usize) -> Vec<(&str, usize)> {
        if !matches!(
            self.node(node).map(|n| &n.kind),
            Some(NodeKind::Group { .. })
        ) {
            return Vec::new();
        }
        self.children(node)
            .iter()
            .filter_map(|&c| self.node(c).map(|n| (n.name.as_str(), c)))
            .collect()
    }
}

impl Names for TypeDescription {
    type Node = u32;

    fn root(&self) -> u32 {
        self.id()
    }

    fn fields(&self, node: u32) -> Vec<(&str, u32)> {
        match self.find(node) {
            Some(t) if t.kind() == Kind::Struct => t.fields().map(|(n, c)| (n, c.id())).collect(),
            _ => Vec::new(),
        }
    }
}

impl<T: Names + ?Sized> Names for std::sync::Arc<T> {
    type Node = T::Node;

    fn root(&self) -> T::Node {
        (**self).root()
    }

    fn fields(&self, node: T::Node) -> Vec<(&str, T::Node)> {
        (**self).fields(node)
    }
}

/// The paths of the fields whose dotted names are `text` (a dot separates names, and may
/// also be part of one).
fn matches<T: Names + ?Sized>(
    tree: &T,
    node: T::Node,
    text: &str,
    path: &mut Vec<String>,
    out: &mut Vec<ColumnPath>,
) {
    for (name, child) in tree.fields(node) {
        if text == name {
            path.push(name.to_owned());
            out.push(ColumnPath::from(path.clone()));
            path.pop();
        } else if let Some(rest) = text
            .strip_prefix(name)
            .and_then(|rest| rest.strip_prefix('.'))
        {
            path.push(name.to_owned());
            matches(tree, child, rest, path, out);
            path.pop();
        }
    }
}

/// The path of the field whose dotted name is `text`.
///
/// # Errors
///
/// Bad usage when no field has that name, or more than one does (a field named `a.b`
/// beside a group `a` with a field `b`).
pub(crate) fn resolve<T: Names + ?Sized>(
    schema: &T,
    text: &str,
    what: &str,
) -> Result<ColumnPath, Failure> {
    let mut found = Vec::new();
    matches(schema, schema.root(), text, &mut Vec::new(), &mut found);
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(Failure::Usage(format!(
            "{what}: no field {text:?} in the schema"
        ))),
        _ => Err(Failure::Usage(format!(
            "{what}: {text:?} names more than one field: {}",
            found
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
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

fn bad(message: &str) -> Failure {
    Failure::Usage(format!("--where: {message}"))
}

fn tokenize(text: &str) -> Result<Vec<Token>, Failure> {
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
                            None => return Err(bad(&format!("unterminated string at {at}"))),
                        },
                        Some((_, ch)) => s.push(ch),
                        None => return Err(bad(&format!("unterminated string at {at}"))),
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
                    _ => return Err(bad(&format!("unexpected '!' at {at}"))),
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
            other => return Err(bad(&format!("unexpected {other:?} at {at}"))),
        }
    }
    Ok(tokens)
}

struct Parser<'s, T: ?Sized> {
    tokens: Vec<Token>,
    pos: usize,
    schema: &'s T,
}

impl<T: Names + ?Sized> Parser<'_, T> {
    fn peek_word(&self, word: &str) -> bool {
        matches!(self.tokens.get(self.pos), Some(Token::Word(w)) if w.eq_ignore_ascii_case(word))
    }

    fn error(&self, what: &str) -> Failure {
        bad(&format!("expected {what} at token {}", self.pos + 1))
    }

    fn expr(&mut self) -> Result<Predicate, Failure> {
        let mut left = self.and()?;
        while self.peek_word("or") {
            self.pos += 1;
            left = left.or(self.and()?);
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Predicate, Failure> {
        let mut left = self.unary()?;
        while self.peek_word("and") {
            self.pos += 1;
            left = left.and(self.unary()?);
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Predicate, Failure> {
        if self.peek_word("not") {
            self.pos += 1;
            return Ok(self.unary()?.negate());
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
                let column = resolve(self.schema, &path, "--where")?;
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
                    return Ok(Predicate::IsNull { column, negated });
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
                Ok(Predicate::Compare {
                    column,
                    op,
                    literal,
                })
            }
            _ => Err(self.error("a field path, 'not' or '('")),
        }
    }
}

/// Parses a `--where` expression, its paths resolved against `schema` (a Parquet schema
/// or an ORC type).
///
/// # Errors
///
/// Bad usage for text that is not an expression of the language, or a path that names no
/// field (or more than one).
pub(crate) fn parse<T: Names + ?Sized>(text: &str, schema: &T) -> Result<Predicate, Failure> {
    let mut parser = Parser {
        tokens: tokenize(text)?,
        pos: 0,
        schema,
    };
    let predicate = parser.expr()?;
    if parser.pos != parser.tokens.len() {
        return Err(parser.error("the end of the expression"));
    }
    Ok(predicate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet_file::{Field, FileReader, Row};
    use std::sync::Arc;

    fn schema() -> Arc<Schema> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/example.parquet"
        );
        let reader = FileReader::open(std::fs::File::open(path).unwrap()).unwrap();
        Arc::clone(reader.schema())
    }

    #[test]
    fn expressions_parse_into_predicates() {
        let schema = schema();
        let p = parse(r#"id >= 10 and (name = "x" or score is null)"#, &schema).unwrap();
        assert_eq!(
            p,
            Predicate::compare("id", Op::Ge, 10)
                .and(Predicate::compare("name", Op::Eq, "x").or(Predicate::is_null("score")))
        );
        let p = parse("not address.city != 'y'", &schema).unwrap();
        assert_eq!(
            p,
            Predicate::compare(ColumnPath::new(["address", "city"]), Op::Ne, "y").negate()
        );
        let row = Row::new(vec![(Arc::from("id"), Field::Int(12))]);
        assert!(parse("id = 12", &schema).unwrap().matches(&row));
        for bad in [
            "",
            "id",
            "id =",
            "id = 1 and",
            "(id = 1",
            "id ~ 1",
            "id = \"open",
            "nope = 1",
        ] {
            assert!(
                matches!(parse(bad, &schema), Err(Failure::Usage(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn dotted_names_resolve_to_one_path() {
        let schema = schema();
        assert_eq!(
            resolve(&schema, "address.city", "--columns").unwrap(),
            ColumnPath::new(["address", "city"])
        );
        assert_eq!(
            resolve(&schema, "address", "--columns").unwrap(),
            ColumnPath::from("address")
        );
        assert!(resolve(&schema, "address.town", "--columns").is_err());
    }

    #[test]
    fn orc_names_resolve_through_structs() {
        let t = TypeDescription::parse(
            "struct<id:int,`a.b`:int,a:struct<b:string,l:array<struct<x:int>>>,u:uniontype<int,string>>",
        )
        .unwrap();
        assert_eq!(
            resolve(&t, "a.l", "--columns").unwrap(),
            ColumnPath::new(["a", "l"])
        );
        assert!(matches!(
            resolve(&t, "a.b", "--columns"),
            Err(Failure::Usage(m)) if m == "--columns: \"a.b\" names more than one field: `a.b`, a.b"
        ));
        // Only structs have named fields: not arrays, nor uniontypes.
        for text in ["a.l.x", "a.l.element", "u.tag", "nope"] {
            assert!(resolve(&t, text, "--columns").is_err(), "{text}");
        }
        assert_eq!(
            parse("id > 1 and a.l is null", &t).unwrap(),
            Predicate::compare("id", Op::Gt, 1)
                .and(Predicate::is_null(ColumnPath::new(["a", "l"])))
        );
    }
}
