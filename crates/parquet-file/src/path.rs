//! Column paths: the names of the fields from the root to a field, one name per level.

use std::fmt;

/// A field's path from the schema's root: the name of each field on the way, in order.
///
/// A path is a list of names, not a dotted string, so a field named `a.b` is never taken
/// for the field `b` inside `a`:
///
/// ```
/// use parquet_file::ColumnPath;
///
/// let nested = ColumnPath::new(["a", "b"]);
/// let dotted = ColumnPath::from("a.b");
/// assert_ne!(nested, dotted);
/// assert_eq!(nested.to_string(), "a.b");
/// assert_eq!(dotted.to_string(), "`a.b`");
/// assert!(ColumnPath::new(["a", "b", "c"]).starts_with(&nested));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColumnPath(Vec<String>);

impl ColumnPath {
    /// The path of these names, outermost first.
    pub fn new<I, S>(parts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self(parts.into_iter().map(Into::into).collect())
    }

    /// The names, outermost first.
    pub fn parts(&self) -> &[String] {
        &self.0
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the path has no name (the root's path).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `prefix` names this field or one of its ancestors (whole names: `a.b`
    /// starts `a.b.c`, not `a.bc`).
    pub fn starts_with(&self, prefix: &ColumnPath) -> bool {
        self.0.starts_with(&prefix.0)
    }

    /// The path one level deeper.
    #[must_use]
    pub fn child(&self, name: &str) -> Self {
        let mut parts = Vec::with_capacity(self.0.len() + 1);
        parts.extend_from_slice(&self.0);
        parts.push(name.to_owned());
        Self(parts)
    }
}

impl From<&str> for ColumnPath {
    /// The path of one top-level field (the text is one name, dots and all).
    fn from(name: &str) -> Self {
        Self(vec![name.to_owned()])
    }
}

impl From<String> for ColumnPath {
    /// The path of one top-level field.
    fn from(name: String) -> Self {
        Self(vec![name])
    }
}

impl From<&[&str]> for ColumnPath {
    fn from(parts: &[&str]) -> Self {
        Self::new(parts.iter().copied())
    }
}

impl<const N: usize> From<[&str; N]> for ColumnPath {
    fn from(parts: [&str; N]) -> Self {
        Self::new(parts)
    }
}

impl From<Vec<String>> for ColumnPath {
    fn from(parts: Vec<String>) -> Self {
        Self(parts)
    }
}

impl fmt::Display for ColumnPath {
    /// The names joined by dots; a name that holds a dot (or is empty) is written between
    /// backquotes, so that the text names one path only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            if part.is_empty() || part.contains(['.', '`']) {
                write!(f, "`{}`", part.replace('`', "``"))?;
            } else {
                f.write_str(part)?;
            }
        }
        Ok(())
    }
}
