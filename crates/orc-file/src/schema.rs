//! The type tree of an ORC file: a root struct whose columns are numbered in pre-order
//! (the root is column 0), as the footer's flat `types` list stores them.

use std::fmt;

use crate::error::{Context as _, Error, ErrorKind, Result};
use crate::proto;

/// The deepest type tree accepted from a file or a type string.
pub const MAX_DEPTH: usize = 64;

// The parser's message says it.
const _: () = assert!(MAX_DEPTH == 64);

/// What a type is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `boolean`
    Boolean,
    /// `tinyint`: 8-bit signed.
    Byte,
    /// `smallint`: 16-bit signed.
    Short,
    /// `int`: 32-bit signed.
    Int,
    /// `bigint`: 64-bit signed.
    Long,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `string`: UTF-8 text.
    String,
    /// `binary`
    Binary,
    /// `timestamp`: a wall-clock date and time, without a time zone.
    Timestamp,
    /// `timestamp with local time zone`: an instant (ORC v1 only).
    TimestampInstant,
    /// `date`: days since 1970-01-01.
    Date,
    /// `decimal(precision, scale)`; in ORC v0 without precision and scale, each value
    /// carrying its own scale.
    Decimal,
    /// `varchar(n)`: text of at most `n` characters.
    Varchar,
    /// `char(n)`: text padded to `n` characters.
    Char,
    /// `array<T>`
    List,
    /// `map<K,V>`
    Map,
    /// `struct<name:T,...>`
    Struct,
    /// `uniontype<T,...>`: each value is one of the alternatives, with its tag.
    Union,
}

impl Kind {
    /// Whether the kind has children.
    pub const fn is_compound(self) -> bool {
        matches!(self, Self::List | Self::Map | Self::Struct | Self::Union)
    }

    /// The name of the kind in Hive's type strings.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Boolean => "boolean",
            Self::Byte => "tinyint",
            Self::Short => "smallint",
            Self::Int => "int",
            Self::Long => "bigint",
            Self::Float => "float",
            Self::Double => "double",
            Self::String => "string",
            Self::Binary => "binary",
            Self::Timestamp => "timestamp",
            Self::TimestampInstant => "timestamp with local time zone",
            Self::Date => "date",
            Self::Decimal => "decimal",
            Self::Varchar => "varchar",
            Self::Char => "char",
            Self::List => "array",
            Self::Map => "map",
            Self::Struct => "struct",
            Self::Union => "uniontype",
        }
    }

    fn from_proto(kind: proto::r#type::Kind) -> Option<Self> {
        use proto::r#type::Kind as K;
        Some(match kind {
            K::Boolean => Self::Boolean,
            K::Byte => Self::Byte,
            K::Short => Self::Short,
            K::Int => Self::Int,
            K::Long => Self::Long,
            K::Float => Self::Float,
            K::Double => Self::Double,
            K::String => Self::String,
            K::Binary => Self::Binary,
            K::Timestamp => Self::Timestamp,
            K::TimestampInstant => Self::TimestampInstant,
            K::Date => Self::Date,
            K::Decimal => Self::Decimal,
            K::Varchar => Self::Varchar,
            K::Char => Self::Char,
            K::List => Self::List,
            K::Map => Self::Map,
            K::Struct => Self::Struct,
            K::Union => Self::Union,
            // ORC 2.0's geometry type: not part of ORC v0 or v1.
            K::Geometry => return None,
        })
    }

    fn to_proto(self) -> proto::r#type::Kind {
        use proto::r#type::Kind as K;
        match self {
            Self::Boolean => K::Boolean,
            Self::Byte => K::Byte,
            Self::Short => K::Short,
            Self::Int => K::Int,
            Self::Long => K::Long,
            Self::Float => K::Float,
            Self::Double => K::Double,
            Self::String => K::String,
            Self::Binary => K::Binary,
            Self::Timestamp => K::Timestamp,
            Self::TimestampInstant => K::TimestampInstant,
            Self::Date => K::Date,
            Self::Decimal => K::Decimal,
            Self::Varchar => K::Varchar,
            Self::Char => K::Char,
            Self::List => K::List,
            Self::Map => K::Map,
            Self::Struct => K::Struct,
            Self::Union => K::Union,
        }
    }
}

/// A type and its children, with the column ids of the file.
///
/// Build one with the constructors ([`TypeDescription::struct_of`],
/// [`TypeDescription::list`], ...) or [`TypeDescription::parse`]; the root of a file's
/// schema is a struct. Column ids are assigned in pre-order when the tree is built, so
/// a subtree built on its own is renumbered when it becomes a child.
///
/// ```
/// use orc_file::{Kind, TypeDescription};
///
/// let schema = TypeDescription::parse("struct<id:bigint,tags:array<string>,price:decimal(10,2)>")?;
/// assert_eq!(schema.to_string(), "struct<id:bigint,tags:array<string>,price:decimal(10,2)>");
/// assert_eq!(schema.column_count(), 5);
/// let (name, tags) = &schema.fields().nth(1).unwrap();
/// assert_eq!((*name, tags.kind(), tags.id()), ("tags", Kind::List, 2));
/// assert_eq!(tags.children()[0].id(), 3);
/// # Ok::<(), orc_file::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDescription {
    kind: Kind,
    id: u32,
    max_id: u32,
    children: Vec<TypeDescription>,
    field_names: Vec<String>,
    precision: Option<u32>,
    scale: Option<u32>,
    max_length: Option<u32>,
    attributes: Vec<(String, String)>,
}

impl TypeDescription {
    /// A type without children: any kind but decimal, varchar, char, list, map, struct
    /// and union (see their constructors).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`] for a kind that needs parameters or children.
    pub fn primitive(kind: Kind) -> Result<Self> {
        if kind.is_compound() || matches!(kind, Kind::Decimal | Kind::Varchar | Kind::Char) {
            return Err(ErrorKind::InvalidInput {
                what: "a primitive of a kind that needs parameters or children",
                kind: Some(kind.name()),
                value: None,
                slot: None,
            }
            .into());
        }
        Ok(Self::leaf(kind))
    }

    fn leaf(kind: Kind) -> Self {
        Self {
            kind,
            id: 0,
            max_id: 0,
            children: Vec::new(),
            field_names: Vec::new(),
            precision: None,
            scale: None,
            max_length: None,
            attributes: Vec::new(),
        }
    }

    /// `decimal(precision, scale)`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidDecimal`] unless `1 <= precision <= 38` and
    /// `scale <= precision`.
    pub fn decimal(precision: u32, scale: u32) -> Result<Self> {
        if !(1..=38).contains(&precision) || scale > precision {
            return Err(ErrorKind::InvalidDecimal { precision, scale }.into());
        }
        let mut t = Self::leaf(Kind::Decimal);
        t.precision = Some(precision);
        t.scale = Some(scale);
        Ok(t)
    }

    /// A decimal without precision and scale, as ORC v0 (Hive 0.11) stores them: each
    /// value has its own scale.
    pub fn unbounded_decimal() -> Self {
        Self::leaf(Kind::Decimal)
    }

    /// `varchar(max_length)`.
    pub fn varchar(max_length: u32) -> Self {
        let mut t = Self::leaf(Kind::Varchar);
        t.max_length = Some(max_length);
        t
    }

    /// `char(length)`.
    pub fn char(length: u32) -> Self {
        let mut t = Self::leaf(Kind::Char);
        t.max_length = Some(length);
        t
    }

    /// `array<element>`.
    pub fn list(element: Self) -> Self {
        Self::compound(Kind::List, vec![element], Vec::new())
    }

    /// `map<key,value>`.
    pub fn map(key: Self, value: Self) -> Self {
        Self::compound(Kind::Map, vec![key, value], Vec::new())
    }

    /// `struct<name:type,...>`.
    pub fn struct_of(fields: impl IntoIterator<Item = (impl Into<String>, Self)>) -> Self {
        let (names, children) = fields.into_iter().map(|(n, t)| (n.into(), t)).unzip();
        Self::compound(Kind::Struct, children, names)
    }

    /// `uniontype<type,...>`.
    pub fn union_of(alternatives: impl IntoIterator<Item = Self>) -> Self {
        Self::compound(Kind::Union, alternatives.into_iter().collect(), Vec::new())
    }

    fn compound(kind: Kind, children: Vec<Self>, field_names: Vec<String>) -> Self {
        let mut t = Self::leaf(kind);
        t.children = children;
        t.field_names = field_names;
        t.renumber(0);
        t
    }

    /// This type with an attribute (a key and value that the file keeps, ORC v1).
    #[must_use]
    pub fn with_attribute(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.attributes.push((key.into(), value.into()));
        self
    }

    fn renumber(&mut self, id: u32) -> u32 {
        self.id = id;
        let mut next = id;
        for child in &mut self.children {
            next = child.renumber(next + 1);
        }
        self.max_id = next;
        next
    }

    /// The kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The column id: the type's position in pre-order (the root is 0).
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The largest column id in this subtree.
    pub fn max_id(&self) -> u32 {
        self.max_id
    }

    /// The number of columns of the tree (the root included).
    pub fn column_count(&self) -> usize {
        (self.max_id - self.id) as usize + 1
    }

    /// The children: a list's element, a map's key and value, a struct's fields, a
    /// union's alternatives.
    pub fn children(&self) -> &[Self] {
        &self.children
    }

    /// A struct's field names (empty for other kinds).
    pub fn field_names(&self) -> &[String] {
        &self.field_names
    }

    /// A struct's fields: names and types.
    pub fn fields(&self) -> impl Iterator<Item = (&str, &Self)> {
        self.field_names
            .iter()
            .map(String::as_str)
            .zip(&self.children)
    }

    /// The field of a struct named `name`.
    pub fn field(&self, name: &str) -> Option<&Self> {
        self.fields().find(|(n, _)| *n == name).map(|(_, t)| t)
    }

    /// A struct's field named `name`, looked for first at `position`: a row or group
    /// whose fields come in the schema's order finds each without a search (a struct of
    /// 200,000 fields would otherwise cost 200,000 searches a row).
    pub fn field_at(&self, position: usize, name: &str) -> Option<&Self> {
        match (self.field_names.get(position), self.children.get(position)) {
            (Some(n), Some(child)) if n == name => Some(child),
            _ => self.field(name),
        }
    }

    /// The name of child `i`: a struct's field name, `element` of a list, `key` and
    /// `value` of a map, `_union_0`, `_union_1`, … of a uniontype (Arrow's names).
    pub fn child_name(&self, i: usize) -> String {
        match self.kind {
            Kind::Struct => self.field_names.get(i).cloned().unwrap_or_default(),
            Kind::List => "element".into(),
            Kind::Map if i == 0 => "key".into(),
            Kind::Map => "value".into(),
            _ => format!("_union_{i}"),
        }
    }

    /// The dotted path of every column of the tree from this type, by column id less
    /// this type's (this type's own path is empty): `s.l.element`, `m.key`.
    pub fn column_paths(&self) -> Vec<String> {
        fn walk(t: &TypeDescription, base: u32, path: &str, out: &mut [String]) {
            if let Some(slot) = out.get_mut((t.id - base) as usize) {
                path.clone_into(slot);
            }
            for (i, child) in t.children.iter().enumerate() {
                let name = t.child_name(i);
                let path = if path.is_empty() {
                    name
                } else {
                    format!("{path}.{name}")
                };
                walk(child, base, &path, out);
            }
        }
        let mut out = vec![String::new(); self.column_count()];
        walk(self, self.id, "", &mut out);
        out
    }

    /// A decimal's precision (`None` for an ORC v0 decimal).
    pub fn precision(&self) -> Option<u32> {
        self.precision
    }

    /// A decimal's scale (`None` for an ORC v0 decimal).
    pub fn scale(&self) -> Option<u32> {
        self.scale
    }

    /// A varchar's or char's length.
    pub fn max_length(&self) -> Option<u32> {
        self.max_length
    }

    /// The attributes the file keeps for this type.
    pub fn attributes(&self) -> &[(String, String)] {
        &self.attributes
    }

    /// The type with column id `id` in this subtree.
    pub fn find(&self, id: u32) -> Option<&Self> {
        if id == self.id {
            return Some(self);
        }
        if id < self.id || id > self.max_id {
            return None;
        }
        self.children
            .iter()
            .find(|c| c.id <= id && id <= c.max_id)
            .and_then(|c| c.find(id))
    }

    /// Every type of the subtree in pre-order (by column id).
    pub fn preorder(&self) -> Vec<&Self> {
        let mut out = Vec::with_capacity(self.column_count());
        self.collect_preorder(&mut out);
        out
    }

    fn collect_preorder<'a>(&'a self, out: &mut Vec<&'a Self>) {
        out.push(self);
        for child in &self.children {
            child.collect_preorder(out);
        }
    }

    /// The type tree of a file's footer: `types[0]` is the root, and each type's
    /// subtypes are the ids that follow it in pre-order.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Malformed`] (and the other kinds of a malformed file, the type's id
    /// as the [`Location`](crate::Location)'s column) when the list is empty, a subtype
    /// id is not the next id in
    /// pre-order (which also rules out cycles), a struct's names do not match its
    /// children, the tree is deeper than [`MAX_DEPTH`], or types are left over.
    pub fn from_proto(types: &[proto::Type]) -> Result<Self> {
        if types.is_empty() {
            return Err(Error::malformed("the footer has no types"));
        }
        let mut next = 0;
        let root = Self::from_proto_at(types, &mut next, 0)?;
        if next as usize != types.len() {
            return Err(Error::mismatch(
                "types of the footer, as its type tree holds them",
                u64::from(next),
                types.len() as u64,
            ));
        }
        Ok(root)
    }

    fn from_proto_at(types: &[proto::Type], next: &mut u32, depth: usize) -> Result<Self> {
        if depth > MAX_DEPTH {
            return Err(Error::limit(
                "depth of the type tree",
                depth as u64,
                MAX_DEPTH as u64,
            ));
        }
        let id = *next;
        Self::type_at(types, next, depth).at_column(id)
    }

    /// Type `*next` of the footer's list, and its subtypes.
    #[allow(clippy::too_many_lines)]
    fn type_at(types: &[proto::Type], next: &mut u32, depth: usize) -> Result<Self> {
        let id = *next;
        let t = types
            .get(id as usize)
            .ok_or_else(|| Error::malformed("a type id past the footer's types"))?;
        let raw = t
            .kind
            .ok_or_else(|| Error::malformed("a type without a kind"))?;
        let kind = proto::r#type::Kind::try_from(raw)
            .ok()
            .and_then(Kind::from_proto)
            .ok_or_else(|| Error::unsupported("type kind", Some(i64::from(raw))))?;
        *next += 1;
        let mut out = Self::leaf(kind);
        out.id = id;
        let expected = match kind {
            Kind::List => Some(1),
            Kind::Map => Some(2),
            Kind::Struct | Kind::Union => None,
            _ => Some(0),
        };
        if let Some(n) = expected.filter(|&n| n != t.subtypes.len()) {
            return Err(ErrorKind::Subtypes {
                kind: kind.name(),
                expected: n as u64,
                found: t.subtypes.len() as u64,
            }
            .into());
        }
        if kind == Kind::Struct && t.field_names.len() != t.subtypes.len() {
            return Err(Error::mismatch(
                "field names of a struct type, for its subtypes",
                t.subtypes.len() as u64,
                t.field_names.len() as u64,
            ));
        }
        if kind == Kind::Union && t.subtypes.len() > 256 {
            return Err(Error::too_many(
                "alternatives of a union type, for a byte tag",
                t.subtypes.len() as u64,
                256,
            ));
        }
        for &sub in &t.subtypes {
            if sub != *next {
                return Err(Error::mismatch(
                    "subtype id, against the id pre-order puts next",
                    u64::from(*next),
                    u64::from(sub),
                ));
            }
            out.children
                .push(Self::from_proto_at(types, next, depth + 1)?);
        }
        if kind == Kind::Struct {
            out.field_names.clone_from(&t.field_names);
        }
        match kind {
            Kind::Decimal => {
                // Hive 0.11 wrote no precision; a precision of 0 means the same.
                out.precision = t.precision.filter(|&p| p > 0);
                out.scale = out.precision.and(Some(t.scale.unwrap_or(0)));
                if let (Some(precision), Some(scale)) = (out.precision, out.scale) {
                    if precision > 38 {
                        return Err(Error::invalid("decimal precision", precision));
                    }
                    if scale > precision {
                        return Err(Error::invalid("decimal scale, above the precision", scale));
                    }
                }
            }
            Kind::Varchar | Kind::Char => out.max_length = t.maximum_length,
            _ => {}
        }
        out.attributes = t
            .attributes
            .iter()
            .map(|a| {
                (
                    a.key.clone().unwrap_or_default(),
                    a.value.clone().unwrap_or_default(),
                )
            })
            .collect();
        out.max_id = *next - 1;
        Ok(out)
    }

    /// The footer's flat list of types, in pre-order.
    pub fn to_proto(&self) -> Vec<proto::Type> {
        let mut out = Vec::with_capacity(self.column_count());
        for t in self.preorder() {
            out.push(proto::Type {
                kind: Some(t.kind.to_proto() as i32),
                subtypes: t.children.iter().map(|c| c.id).collect(),
                field_names: t.field_names.clone(),
                maximum_length: t.max_length,
                precision: t.precision,
                scale: t.scale,
                attributes: t
                    .attributes
                    .iter()
                    .map(|(k, v)| proto::StringPair {
                        key: Some(k.clone()),
                        value: Some(v.clone()),
                    })
                    .collect(),
            });
        }
        out
    }

    /// Parses a type string in Hive's syntax: `struct<a:int,b:array<string>>`,
    /// `decimal(10,2)`, `varchar(20)`, `map<string,double>`, `uniontype<int,string>`,
    /// `timestamp with local time zone`. Names may be quoted with backticks.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Syntax`] saying where the text is wrong and what was expected there.
    pub fn parse(text: &str) -> Result<Self> {
        let mut parser = Parser { text, pos: 0 };
        let mut t = parser.parse_type(0)?;
        parser.skip_spaces();
        if parser.pos != text.len() {
            return Err(parser.error("the end of the type"));
        }
        t.renumber(0);
        Ok(t)
    }
}

impl fmt::Display for TypeDescription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Decimal => match (self.precision, self.scale) {
                (Some(p), Some(s)) => write!(f, "decimal({p},{s})"),
                _ => f.write_str("decimal"),
            },
            Kind::Varchar | Kind::Char => {
                write!(f, "{}({})", self.kind.name(), self.max_length.unwrap_or(0))
            }
            Kind::Struct => {
                f.write_str("struct<")?;
                for (i, (name, t)) in self.fields().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    if name.chars().all(|c| c.is_alphanumeric() || c == '_') && !name.is_empty() {
                        f.write_str(name)?;
                    } else {
                        write!(f, "`{}`", name.replace('`', "``"))?;
                    }
                    write!(f, ":{t}")?;
                }
                f.write_str(">")
            }
            Kind::List | Kind::Map | Kind::Union => {
                write!(f, "{}<", self.kind.name())?;
                for (i, t) in self.children.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(">")
            }
            _ => f.write_str(self.kind.name()),
        }
    }
}

/// The words after `timestamp with`, and how an error says each was expected.
const LOCAL_TIME_ZONE: [(&str, &str); 3] =
    [("local", "'local'"), ("time", "'time'"), ("zone", "'zone'")];

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, expected: &'static str) -> Error {
        ErrorKind::Syntax {
            offset: self.pos,
            expected,
        }
        .into()
    }

    fn rest(&self) -> &str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn skip_spaces(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, token: char) -> bool {
        self.skip_spaces();
        if self.rest().starts_with(token) {
            self.pos += token.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: char) -> Result<()> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.error(match token {
                '(' => "'('",
                ')' => "')'",
                ',' => "','",
                ':' => "':'",
                '<' => "'<'",
                '>' => "'>'",
                _ => "a delimiter",
            }))
        }
    }

    fn word(&mut self) -> &str {
        self.skip_spaces();
        let rest = self.rest();
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let start = self.pos;
        self.pos += len;
        self.text.get(start..self.pos).unwrap_or("")
    }

    fn name(&mut self) -> Result<String> {
        self.skip_spaces();
        if self.eat('`') {
            let mut name = String::new();
            loop {
                let rest = self.rest();
                let Some(end) = rest.find('`') else {
                    return Err(self.error("a closing backtick"));
                };
                name.push_str(rest.get(..end).unwrap_or(""));
                self.pos += end + 1;
                if self.rest().starts_with('`') {
                    name.push('`');
                    self.pos += 1;
                } else {
                    return Ok(name);
                }
            }
        }
        let word = self.word();
        if word.is_empty() {
            return Err(self.error("a field name"));
        }
        Ok(word.to_owned())
    }

    fn number(&mut self) -> Result<u32> {
        let word = self.word();
        word.parse().map_err(|_| self.error("a number"))
    }

    fn parse_type(&mut self, depth: usize) -> Result<TypeDescription> {
        if depth > MAX_DEPTH {
            return Err(self.error("a type tree at most 64 (MAX_DEPTH) deep"));
        }
        let start = self.pos;
        let word = self.word().to_ascii_lowercase();
        let t = match word.as_str() {
            "boolean" => TypeDescription::leaf(Kind::Boolean),
            "tinyint" | "byte" => TypeDescription::leaf(Kind::Byte),
            "smallint" | "short" => TypeDescription::leaf(Kind::Short),
            "int" | "integer" => TypeDescription::leaf(Kind::Int),
            "bigint" | "long" => TypeDescription::leaf(Kind::Long),
            "float" => TypeDescription::leaf(Kind::Float),
            "double" => TypeDescription::leaf(Kind::Double),
            "string" => TypeDescription::leaf(Kind::String),
            "binary" => TypeDescription::leaf(Kind::Binary),
            "date" => TypeDescription::leaf(Kind::Date),
            "timestamp" => {
                let save = self.pos;
                let with = self.word().to_ascii_lowercase();
                if with == "with" {
                    for (word, expected) in LOCAL_TIME_ZONE {
                        if self.word().to_ascii_lowercase() != word {
                            return Err(self.error(expected));
                        }
                    }
                    TypeDescription::leaf(Kind::TimestampInstant)
                } else {
                    self.pos = save;
                    TypeDescription::leaf(Kind::Timestamp)
                }
            }
            "decimal" => {
                if self.eat('(') {
                    let precision = self.number()?;
                    let scale = if self.eat(',') { self.number()? } else { 0 };
                    self.expect(')')?;
                    TypeDescription::decimal(precision, scale)?
                } else {
                    // Hive's default for a bare `decimal`.
                    TypeDescription::decimal(38, 10)?
                }
            }
            "varchar" | "char" => {
                self.expect('(')?;
                let length = self.number()?;
                self.expect(')')?;
                if word == "char" {
                    TypeDescription::char(length)
                } else {
                    TypeDescription::varchar(length)
                }
            }
            "array" => {
                self.expect('<')?;
                let element = self.parse_type(depth + 1)?;
                self.expect('>')?;
                TypeDescription::list(element)
            }
            "map" => {
                self.expect('<')?;
                let key = self.parse_type(depth + 1)?;
                self.expect(',')?;
                let value = self.parse_type(depth + 1)?;
                self.expect('>')?;
                TypeDescription::map(key, value)
            }
            "uniontype" => {
                self.expect('<')?;
                let mut alternatives = vec![self.parse_type(depth + 1)?];
                while self.eat(',') {
                    alternatives.push(self.parse_type(depth + 1)?);
                }
                self.expect('>')?;
                if alternatives.len() > 256 {
                    return Err(self.error("at most 256 alternatives"));
                }
                TypeDescription::union_of(alternatives)
            }
            "struct" => {
                self.expect('<')?;
                let mut fields = Vec::new();
                if !self.eat('>') {
                    loop {
                        let name = self.name()?;
                        self.expect(':')?;
                        fields.push((name, self.parse_type(depth + 1)?));
                        if !self.eat(',') {
                            break;
                        }
                    }
                    self.expect('>')?;
                }
                TypeDescription::struct_of(fields)
            }
            _ => {
                self.pos = start;
                self.skip_spaces();
                return Err(self.error("a type name"));
            }
        };
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn type_strings_round_trip() {
        for text in [
            "struct<a:boolean,b:tinyint,c:smallint,d:int,e:bigint,f:float,g:double>",
            "struct<s:string,b:binary,t:timestamp,i:timestamp with local time zone,d:date>",
            "struct<d:decimal(38,18),v:varchar(10),c:char(3)>",
            "struct<l:array<map<string,array<int>>>,u:uniontype<int,string,struct<x:int>>>",
            "struct<`a b`:int,`we``ird`:string>",
            "struct<>",
        ] {
            let t = TypeDescription::parse(text).unwrap();
            assert_eq!(t.to_string(), text);
            assert_eq!(TypeDescription::from_proto(&t.to_proto()).unwrap(), t);
        }
    }

    #[test]
    fn ids_are_preorder() {
        let t = TypeDescription::parse("struct<a:int,b:map<string,struct<x:int,y:int>>,c:int>")
            .unwrap();
        let ids: Vec<_> = t.preorder().iter().map(|t| (t.id(), t.max_id())).collect();
        assert_eq!(
            ids,
            [
                (0, 7),
                (1, 1),
                (2, 6),
                (3, 3),
                (4, 6),
                (5, 5),
                (6, 6),
                (7, 7)
            ]
        );
        assert_eq!(t.find(5).unwrap().kind(), Kind::Int);
        assert_eq!(t.find(4).unwrap().kind(), Kind::Struct);
        assert!(t.find(8).is_none());
    }

    #[test]
    fn bad_strings_are_errors() {
        for text in [
            "",
            "struct<a:int",
            "struct<a>",
            "decimal(39,2)",
            "array<>",
            "int int",
            "foo",
        ] {
            assert!(TypeDescription::parse(text).is_err(), "{text}");
        }
        let deep = "array<".repeat(100) + "int" + &">".repeat(100);
        assert!(TypeDescription::parse(&deep).is_err());
    }

    #[test]
    fn footer_types_out_of_preorder_are_errors() {
        let mut types = TypeDescription::parse("struct<a:int,b:int>")
            .unwrap()
            .to_proto();
        types[0].subtypes = vec![2, 1];
        assert!(TypeDescription::from_proto(&types).is_err());
        // A cycle: the root names itself.
        types[0].subtypes = vec![0];
        assert!(TypeDescription::from_proto(&types).is_err());
        // Names and children disagree.
        let mut types = TypeDescription::parse("struct<a:int,b:int>")
            .unwrap()
            .to_proto();
        types[0].field_names.pop();
        assert!(TypeDescription::from_proto(&types).is_err());
        // Types left over.
        let mut types = TypeDescription::parse("struct<a:int>").unwrap().to_proto();
        types.push(types[1].clone());
        assert!(TypeDescription::from_proto(&types).is_err());
    }
}
