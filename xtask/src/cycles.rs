//! `cargo xtask cycles`: cycles between the modules of each crate.
//!
//! Every crate root (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`) of every crate under
//! `crates/` and of `xtask` is parsed with `syn`, and its module tree followed through
//! `mod` declarations (`a.rs` or `a/mod.rs`, `#[path]`, inline `mod a { }`), leaving out
//! whatever is compiled only for tests (`#[cfg(test)]`). Each module's references to
//! modules of its own crate are collected: the leaves of its `use` trees and the paths of
//! its code that start with `crate::`, `super::`, `self::` or the name of one of its own
//! child modules. A path resolves to the deepest module it names, through `use`
//! declarations on the way (so `crate::Error`, where `lib.rs` has `pub use
//! error::Error`, is a reference to `error`).
//!
//! A reference from `a::x` (or any module inside it) to `a::y` (or any module inside it)
//! is an edge `x -> y` among the children of `a`; a reference between a module and one
//! of its own ancestors or descendants (a child using `super::helper`, a parent using its
//! child) is none. Every cycle among siblings is reported, one line each, with the place
//! of one reference per edge; the command fails when there is any.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use syn::parse::Parser as _;
use syn::visit::Visit;

use crate::root;

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    if let Some(option) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!("cycles: unknown option {option}"));
    }
    let root = root();
    let mut crate_dirs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .map_err(|e| format!("{}: {e}", root.join("crates").display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.join("src").is_dir())
        .collect();
    crate_dirs.push(root.join("xtask"));
    crate_dirs.sort();

    let mut report = String::new();
    let (mut roots, mut modules, mut cycles) = (0, 0, 0);
    for dir in &crate_dirs {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !args.is_empty() && !args.contains(&name) {
            continue;
        }
        for (label, file) in crate_roots(dir, &name) {
            let krate = Crate::load(&file, &mut |path| std::fs::read_to_string(path).ok())?;
            roots += 1;
            modules += krate.modules.len();
            for cycle in krate.cycles() {
                cycles += 1;
                let _ = writeln!(report, "{label}: {}", cycle.display(&root));
            }
        }
    }
    if !args.is_empty() && roots == 0 {
        return Err(format!("cycles: no crate named {}", args.join(" or ")));
    }
    print!("{report}");
    println!("cycles: {roots} crate roots, {modules} modules, {cycles} cycles");
    if cycles == 0 {
        Ok(())
    } else {
        Err(format!(
            "{cycles} cycles between sibling modules (one reference per edge shown)"
        ))
    }
}

/// The crate roots of the package in `dir`, with the label to report them under.
fn crate_roots(dir: &Path, name: &str) -> Vec<(String, PathBuf)> {
    let src = dir.join("src");
    let lib = src.join("lib.rs");
    let main = src.join("main.rs");
    let mut roots = Vec::new();
    if lib.is_file() {
        roots.push((name.to_owned(), lib.clone()));
    }
    if main.is_file() {
        let label = if lib.is_file() {
            format!("{name} (bin)")
        } else {
            name.to_owned()
        };
        roots.push((label, main));
    }
    let mut bins: Vec<PathBuf> = std::fs::read_dir(src.join("bin"))
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    bins.sort();
    for bin in bins {
        let file = if bin.is_dir() {
            bin.join("main.rs")
        } else {
            bin.clone()
        };
        let Some(stem) = bin.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        if file.is_file() && file.extension().is_some_and(|e| e == "rs") {
            roots.push((format!("{name} (bin {stem})"), file));
        }
    }
    roots
}

/// A place in the source.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Location {
    file: PathBuf,
    line: usize,
}

/// A path as written in a module, to resolve once the whole tree is known.
#[derive(Debug)]
struct Reference {
    path: Vec<String>,
    at: Location,
}

/// A `use` declaration of a module: `name` brings `path` into scope (`None`: a glob).
#[derive(Debug)]
struct Import {
    name: Option<String>,
    path: Vec<String>,
}

#[derive(Debug, Default)]
struct Module {
    /// From the crate root: empty for the root.
    path: Vec<String>,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    /// Names of the items defined here, modules aside.
    items: BTreeSet<String>,
    imports: Vec<Import>,
    references: Vec<Reference>,
}

/// What a name in a module stands for.
#[derive(Debug, Clone, Copy)]
enum Found {
    Module(usize),
    /// An item defined in this module.
    Item(usize),
}

/// The module tree of one crate root.
#[derive(Debug)]
struct Crate {
    modules: Vec<Module>,
}

/// One cycle among the children of a module: `modules[0] -> modules[1] -> … ->
/// modules[0]`, with one reference for each edge.
#[derive(Debug, PartialEq, Eq)]
struct Cycle {
    modules: Vec<String>,
    edges: Vec<Location>,
}

impl Cycle {
    fn display(&self, root: &Path) -> String {
        let mut names = self.modules.clone();
        names.extend(self.modules.first().cloned());
        let places: Vec<String> = self
            .edges
            .iter()
            .map(|at| {
                let file = at.file.strip_prefix(root).unwrap_or(&at.file);
                format!("{}:{}", file.display(), at.line)
            })
            .collect();
        format!("{} ({})", names.join(" -> "), places.join(", "))
    }
}

/// Where the files of a module's child modules are, and whether the module is inline in
/// a file (for `#[path]`).
struct Place<'a> {
    file: &'a Path,
    dir: PathBuf,
    inline: bool,
}

impl Crate {
    /// Reads the crate whose root file is `root_file`, reading files with `read`.
    fn load(
        root_file: &Path,
        read: &mut dyn FnMut(&Path) -> Option<String>,
    ) -> Result<Self, String> {
        let mut krate = Self {
            modules: vec![Module::default()],
        };
        let text = read(root_file).ok_or_else(|| format!("cannot read {}", root_file.display()))?;
        let file = syn::parse_file(&text).map_err(|e| format!("{}: {e}", root_file.display()))?;
        let place = Place {
            file: root_file,
            dir: root_file.parent().unwrap_or(Path::new("")).to_path_buf(),
            inline: false,
        };
        krate.add_items(0, &file.items, &place, read)?;
        Ok(krate)
    }

    /// Adds the items of module `id`, found in `place`, and the modules they declare.
    fn add_items(
        &mut self,
        id: usize,
        items: &[syn::Item],
        place: &Place<'_>,
        read: &mut dyn FnMut(&Path) -> Option<String>,
    ) -> Result<(), String> {
        for item in items {
            if test_only(item_attrs(item)) {
                continue;
            }
            match item {
                syn::Item::Mod(module) => self.add_module(id, module, place, read)?,
                syn::Item::Use(declaration) => {
                    let mut leaves = Vec::new();
                    use_leaves(&declaration.tree, &mut Vec::new(), &mut leaves);
                    self.modules[id].imports.extend(
                        leaves
                            .into_iter()
                            .map(|(path, name, _)| Import { name, path }),
                    );
                }
                _ => {
                    if let Some(name) = item_name(item) {
                        self.modules[id].items.insert(name);
                    }
                }
            }
        }
        // Once every child module is known, since a path may start with one.
        let children: BTreeSet<String> = self.modules[id].children.keys().cloned().collect();
        let mut collector = Collector {
            file: place.file,
            children: &children,
            references: &mut self.modules[id].references,
        };
        for item in items {
            collector.visit_item(item);
        }
        Ok(())
    }

    fn add_module(
        &mut self,
        parent: usize,
        module: &syn::ItemMod,
        place: &Place<'_>,
        read: &mut dyn FnMut(&Path) -> Option<String>,
    ) -> Result<(), String> {
        let name = module.ident.to_string();
        let id = self.modules.len();
        let mut path = self.modules[parent].path.clone();
        path.push(name.clone());
        self.modules.push(Module {
            path,
            parent: Some(parent),
            ..Module::default()
        });
        self.modules[parent].children.insert(name.clone(), id);
        let path_attr = path_attribute(&module.attrs);
        if let Some((_, items)) = &module.content {
            let dir = match &path_attr {
                Some(p) => place.dir.join(p),
                None => place.dir.join(&name),
            };
            let inner = Place {
                file: place.file,
                dir,
                inline: true,
            };
            return self.add_items(id, items, &inner, read);
        }
        let candidates = match &path_attr {
            Some(p) if place.inline => vec![place.dir.join(p)],
            Some(p) => vec![place.file.parent().unwrap_or(Path::new("")).join(p)],
            None => vec![
                place.dir.join(format!("{name}.rs")),
                place.dir.join(&name).join("mod.rs"),
            ],
        };
        let Some((file, text)) = candidates
            .iter()
            .find_map(|c| read(c).map(|text| (c.clone(), text)))
        else {
            return Err(format!(
                "{}: no file for `mod {name};` (looked for {})",
                place.file.display(),
                candidates
                    .iter()
                    .map(|c| c.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        let parsed = syn::parse_file(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let mod_rs = file.file_name().is_some_and(|f| f == "mod.rs") || path_attr.is_some();
        let dir = if mod_rs {
            file.parent().unwrap_or(Path::new("")).to_path_buf()
        } else {
            file.with_extension("")
        };
        let inner = Place {
            file: &file,
            dir,
            inline: false,
        };
        self.add_items(id, &parsed.items, &inner, read)
    }

    /// What `name` stands for in module `id`: a child module, an item, or what a `use`
    /// brings in.
    fn lookup(&self, id: usize, name: &str, depth: u32) -> Option<Found> {
        let module = &self.modules[id];
        if let Some(&child) = module.children.get(name) {
            return Some(Found::Module(child));
        }
        if module.items.contains(name) {
            return Some(Found::Item(id));
        }
        if depth > 16 {
            return None;
        }
        if let Some(import) = module
            .imports
            .iter()
            .find(|i| i.name.as_deref() == Some(name))
        {
            return self.resolve(id, &import.path, depth + 1);
        }
        module
            .imports
            .iter()
            .filter(|i| i.name.is_none())
            .filter_map(|i| match self.resolve(id, &i.path, depth + 1) {
                Some(Found::Module(glob)) if glob != id => Some(glob),
                _ => None,
            })
            .find_map(|glob| self.lookup(glob, name, depth + 1))
    }

    /// What `path`, written in module `id`, names; `None` when its first segment is not
    /// of this crate (another crate, a local name).
    fn resolve(&self, id: usize, path: &[String], depth: u32) -> Option<Found> {
        let mut current = id;
        let mut rest = path;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                current = 0;
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    current = self.modules[current].parent?;
                    rest = &rest[1..];
                }
            }
            Some(first) => match self.lookup(id, first, depth)? {
                Found::Module(child) => {
                    current = child;
                    rest = &rest[1..];
                }
                Found::Item(owner) => return Some(Found::Item(owner)),
            },
            None => return None,
        }
        for name in rest {
            match self.lookup(current, name, depth) {
                Some(Found::Module(child)) => current = child,
                Some(Found::Item(owner)) => return Some(Found::Item(owner)),
                None => return Some(Found::Item(current)),
            }
        }
        Some(Found::Module(current))
    }

    /// Edges between siblings: `(parent, from child, to child)` to the first reference
    /// (by place) that makes it.
    fn edges(&self) -> BTreeMap<(Vec<String>, String, String), Location> {
        let mut edges: BTreeMap<(Vec<String>, String, String), Location> = BTreeMap::new();
        for (id, module) in self.modules.iter().enumerate() {
            for reference in &module.references {
                // A path whose first segment is not of this crate names nothing here.
                let Some(Found::Module(target) | Found::Item(target)) =
                    self.resolve(id, &reference.path, 0)
                else {
                    continue;
                };
                let (from, to) = (&module.path, &self.modules[target].path);
                let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
                if common == from.len() || common == to.len() {
                    // The same module, or one inside the other.
                    continue;
                }
                let key = (
                    from[..common].to_vec(),
                    from[common].clone(),
                    to[common].clone(),
                );
                edges
                    .entry(key)
                    .and_modify(|at| {
                        if reference.at < *at {
                            at.clone_from(&reference.at);
                        }
                    })
                    .or_insert_with(|| reference.at.clone());
            }
        }
        edges
    }

    /// Every cycle among siblings: for each edge inside a strongly connected set of
    /// siblings, the shortest cycle through it (each cycle once).
    fn cycles(&self) -> Vec<Cycle> {
        let mut levels: BTreeMap<Vec<String>, BTreeMap<(String, String), Location>> =
            BTreeMap::new();
        for ((parent, from, to), at) in self.edges() {
            levels.entry(parent).or_default().insert((from, to), at);
        }
        let mut cycles = Vec::new();
        for (parent, edges) in levels {
            let mut found: Vec<Vec<String>> = Vec::new();
            for (from, to) in edges.keys() {
                let Some(back) = shortest_path(&edges, to, from) else {
                    continue;
                };
                // from -> to -> … -> from, as a rotation that starts at its least name.
                let mut cycle: Vec<String> = std::iter::once(from.clone())
                    .chain(back[..back.len() - 1].iter().cloned())
                    .collect();
                let start = (0..cycle.len()).min_by_key(|&i| &cycle[i]).unwrap_or(0);
                cycle.rotate_left(start);
                if !found.contains(&cycle) {
                    found.push(cycle);
                }
            }
            found.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
            for cycle in found {
                let edges = (0..cycle.len())
                    .map(|i| {
                        edges[&(cycle[i].clone(), cycle[(i + 1) % cycle.len()].clone())].clone()
                    })
                    .collect();
                let full = |name: &String| {
                    parent
                        .iter()
                        .chain(std::iter::once(name))
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("::")
                };
                cycles.push(Cycle {
                    modules: cycle.iter().map(full).collect(),
                    edges,
                });
            }
        }
        cycles
    }
}

/// The shortest path `from -> … -> to` along `edges` (both ends included), if any.
fn shortest_path(
    edges: &BTreeMap<(String, String), Location>,
    from: &str,
    to: &str,
) -> Option<Vec<String>> {
    let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(node) = queue.pop_front() {
        if node == to {
            let mut path = vec![to.to_owned()];
            let mut at = to;
            while at != from {
                at = previous[at];
                path.push(at.to_owned());
            }
            path.reverse();
            return Some(path);
        }
        for (a, b) in edges.keys() {
            if a == node && b != from && !previous.contains_key(b.as_str()) {
                previous.insert(b, node);
                queue.push_back(b);
            }
        }
    }
    None
}

/// Collects the references a module's items make to modules of the crate.
struct Collector<'a> {
    file: &'a Path,
    /// The module's own child modules, whose names start paths of the crate.
    children: &'a BTreeSet<String>,
    references: &'a mut Vec<Reference>,
}

impl Collector<'_> {
    fn local(&self, first: &str) -> bool {
        matches!(first, "crate" | "super" | "self") || self.children.contains(first)
    }

    fn push(&mut self, path: Vec<String>, line: usize) {
        self.references.push(Reference {
            path,
            at: Location {
                file: self.file.to_path_buf(),
                line,
            },
        });
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !test_only(item_attrs(item)) {
            syn::visit::visit_item(self, item);
        }
    }

    // Modules nested in a function body are rare; they are not followed.
    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {}

    fn visit_item_use(&mut self, declaration: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        use_leaves(&declaration.tree, &mut Vec::new(), &mut leaves);
        // Those of other crates are told apart when resolved.
        for (path, _, line) in leaves {
            self.push(path, line);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none()
            && let Some(first) = path.segments.first()
            && self.local(&first.ident.to_string())
            && path.segments.len() > 1
        {
            let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.push(segments, first.ident.span().start().line);
        }
        syn::visit::visit_path(self, path);
    }

    // `pub(in crate::a)` and `pub(super)` name ancestors, never siblings.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        // Most macros of code (`assert!`, `vec!`, `format!`, `matches!` aside) take
        // expressions separated by commas.
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(exprs) = parser.parse2(mac.tokens.clone()) {
            for expr in &exprs {
                self.visit_expr(expr);
            }
        }
    }
}

/// The leaves of a `use` tree below `prefix`: the path, the name it brings into scope
/// (`None` for a glob or `_`) and its line.
fn use_leaves(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>, usize)>,
) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_leaves(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(name) => {
            let line = name.ident.span().start().line;
            if name.ident == "self" {
                out.push((prefix.clone(), prefix.last().cloned(), line));
            } else {
                let mut path = prefix.clone();
                path.push(name.ident.to_string());
                out.push((path, Some(name.ident.to_string()), line));
            }
        }
        syn::UseTree::Rename(rename) => {
            let line = rename.ident.span().start().line;
            let mut path = prefix.clone();
            if rename.ident != "self" {
                path.push(rename.ident.to_string());
            }
            // `as _` brings in no name (only a trait's methods): its alias `_` is one
            // no path can look up, and it is no glob.
            out.push((path, Some(rename.rename.to_string()), line));
        }
        syn::UseTree::Glob(glob) => {
            let line = glob.star_token.span.start().line;
            out.push((prefix.clone(), None, line));
        }
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_leaves(tree, prefix, out);
            }
        }
    }
}

/// The name an item (not a module, not a `use`) defines in its module's namespace.
fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::ExternCrate(i) => i.rename.as_ref().map_or(&i.ident, |(_, name)| name),
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::TraitAlias(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// Whether `attrs` compile the item only for tests: `#[cfg(test)]`, or a `cfg` whose
/// `all(…)` needs `test`.
fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| needs_test(&meta))
    })
}

fn needs_test(meta: &syn::Meta) -> bool {
    match meta {
        syn::Meta::Path(path) => path.is_ident("test"),
        syn::Meta::List(list) => {
            let Ok(args) = list.parse_args_with(
                syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
            ) else {
                return false;
            };
            if list.path.is_ident("all") {
                args.iter().any(needs_test)
            } else if list.path.is_ident("any") {
                !args.is_empty() && args.iter().all(needs_test)
            } else {
                false
            }
        }
        syn::Meta::NameValue(_) => false,
    }
}

/// The value of a `#[path = "…"]` attribute.
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cycles of the crate made of `files` (paths under `src/`), as printed.
    fn cycles(files: &[(&str, &str)]) -> Vec<String> {
        let files: BTreeMap<PathBuf, String> = files
            .iter()
            .map(|(path, text)| (Path::new("src").join(path), (*text).to_owned()))
            .collect();
        let krate = Crate::load(Path::new("src/lib.rs"), &mut |path| {
            files.get(path).cloned()
        })
        .unwrap();
        krate
            .cycles()
            .iter()
            .map(|c| c.display(Path::new("")))
            .collect()
    }

    #[test]
    fn a_use_cycle_between_files() {
        let found = cycles(&[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "use crate::b::B;\npub struct A;\n"),
            (
                "b.rs",
                "pub struct B;\n\nfn f() -> crate::a::A { todo!() }\n",
            ),
        ]);
        assert_eq!(found, ["a -> b -> a (src/a.rs:1, src/b.rs:3)"]);
    }

    #[test]
    fn a_parent_and_its_child_are_no_cycle() {
        // The child uses an item of its parent's own file, and the parent the child:
        // normal Rust.
        let found = cycles(&[
            ("lib.rs", "mod a;\nfn helper() {}\npub use a::A;\n"),
            (
                "a/mod.rs",
                "mod inner;\npub use inner::A;\nfn f() { super::helper() }\n",
            ),
            (
                "a/inner.rs",
                "pub struct A;\nfn g() { crate::helper(); super::f(); }\n",
            ),
        ]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn one_way_references_are_no_cycle() {
        let found = cycles(&[
            ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
            ("a.rs", "use crate::{b::B, c::C};\n"),
            ("b.rs", "pub struct B(crate::c::C);\n"),
            ("c.rs", "pub struct C;\n"),
        ]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn re_exports_at_the_root_are_followed() {
        // `crate::Error` is `error::Error`: `error` and `a` use each other.
        let found = cycles(&[
            ("lib.rs", "mod a;\nmod error;\npub use error::Error;\n"),
            ("a.rs", "pub fn f() -> crate::Error { todo!() }\n"),
            (
                "error.rs",
                "pub struct Error;\nimpl From<crate::a::X> for Error {}\n",
            ),
        ]);
        assert_eq!(found, ["a -> error -> a (src/a.rs:1, src/error.rs:2)"]);
    }

    #[test]
    fn re_exports_of_a_mod_rs_are_followed() {
        // `super::Thing` in `m::x` is `m::y::Thing`, through `m/mod.rs`; `m::y` uses
        // `m::x` back inside a macro.
        let found = cycles(&[
            ("lib.rs", "mod m;\n"),
            ("m/mod.rs", "mod x;\nmod y;\npub(crate) use self::y::*;\n"),
            ("m/x.rs", "use super::Thing;\npub fn f() {}\n"),
            (
                "m/y.rs",
                "pub struct Thing;\nfn g() { assert!(super::x::f() == ()); }\n",
            ),
        ]);
        assert_eq!(found, ["m::x -> m::y -> m::x (src/m/x.rs:1, src/m/y.rs:2)"]);
    }

    #[test]
    fn descendants_count_for_their_ancestors_and_inline_modules_are_modules() {
        // a::deep uses b::inner, and b's inline module uses a: a <-> b at the root.
        let found = cycles(&[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "mod deep;\n"),
            ("a/deep.rs", "use crate::b::inner::f;\npub fn g() {}\n"),
            (
                "b.rs",
                "pub mod inner {\n    pub fn f() {}\n    fn h() { crate::a::deep::g() }\n}\n",
            ),
        ]);
        assert_eq!(found, ["a -> b -> a (src/a/deep.rs:1, src/b.rs:3)"]);
    }

    #[test]
    fn test_modules_are_left_out() {
        let found = cycles(&[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "use crate::b::B;\npub fn f() {}\n"),
            (
                "b.rs",
                "pub struct B;\n#[cfg(test)]\nmod tests;\n#[cfg(all(test, feature = \"x\"))]\nfn t() { crate::a::f() }\n",
            ),
            ("b/tests.rs", "use crate::a::f;\n"),
        ]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_longer_cycle_is_reported_once() {
        let found = cycles(&[
            ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
            ("a.rs", "use crate::b::B;\npub struct A;\n"),
            ("b.rs", "use crate::c::C;\npub struct B;\n"),
            ("c.rs", "use crate::a::A;\npub struct C;\n"),
        ]);
        assert_eq!(
            found,
            ["a -> b -> c -> a (src/a.rs:1, src/b.rs:1, src/c.rs:1)"]
        );
    }
}
