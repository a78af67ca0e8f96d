//! JSON Lines records: pull a few named fields out of every line, in parallel, without building
//! whole documents.
//!
//! Evaluation logs carry far more than a rescorer needs: an lm-eval `samples_*.jsonl` line is
//! about 4 kB, most of it the few-shot prompt, to deliver a response, a target and a metric.
//! serde_json skips the unwanted members as `IgnoredAny` (no allocation), so a chunk of lines is
//! read at memory speed on every core. A field is a dotted path (`doc.answer`, `resps.0`): a
//! segment of digits indexes an array, any other names an object member.
//!
//! Bad lines are data, not errors: a line that is not a JSON object is reported with its index
//! and the parser's message, and the other lines are read.

use rayon::prelude::*;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

use crate::check::Cell;
use crate::column::Texts;
use crate::json_out::write_string;
use crate::names::str_enum;

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

/// Parse a dotted path: `doc.answer` -> [Key(doc), Key(answer)]; `resps.0` -> [Key, Index(0)].
pub fn parse_path(path: &str) -> Vec<Segment> {
    path.split('.')
        .map(|s| match s.parse::<usize>() {
            Ok(i) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => Segment::Index(i),
            _ => Segment::Key(s.to_string()),
        })
        .collect()
}

/// How a field's value is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// A string as its text; a number or boolean as its JSON literal; an array or object as its
    /// JSON text; null and missing as no value.
    Text,
    /// An array as a list of texts (elements as for `Text`); a scalar as a list of one; null and
    /// missing as no value.
    TextList,
    /// A number as f64; `true`/`false` as 1/0; anything else as no value.
    Number,
}

str_enum!(Want, "field kind" {
    Text => "text",
    TextList => "list",
    Number => "number",
});

/// The JSON type found at a path (what the value was, whatever was asked for).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Tag {
    Missing = 0,
    Null = 1,
    String = 2,
    Number = 3,
    Bool = 4,
    Array = 5,
    Object = 6,
    /// An array (read as a list of texts) holding an array or object: its items are JSON text,
    /// not strings, so a caller that wants strings can refuse the record.
    Nested = 7,
}

// Declaration order is `Tag as u8` order (the tag codes index `NAMES`; a test checks it).
str_enum!(Tag, "json type" {
    Missing => "missing",
    Null => "null",
    String => "string",
    Number => "number",
    Bool => "bool",
    Array => "array",
    Object => "object",
    Nested => "nested",
});

/// A requested field.
#[derive(Debug, Clone)]
pub struct Field {
    pub path: Vec<Segment>,
    pub want: Want,
}

/// A column of one field over the good records, as Arrow-style buffers.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// `offsets` has n+1 entries into `data`; `valid[i]` is false for no value.
    Text {
        offsets: Vec<i64>,
        data: Vec<u8>,
        valid: Vec<bool>,
        tags: Vec<u8>,
    },
    /// `list_offsets` (n+1) index the items; items are texts as in `Text`.
    TextList {
        list_offsets: Vec<i64>,
        valid: Vec<bool>,
        item_offsets: Vec<i64>,
        item_data: Vec<u8>,
        item_valid: Vec<bool>,
        tags: Vec<u8>,
    },
    Number {
        values: Vec<f64>,
        valid: Vec<bool>,
        tags: Vec<u8>,
    },
}

impl Column {
    fn new(want: Want) -> Column {
        match want {
            Want::Text => Column::Text {
                offsets: vec![0],
                data: Vec::new(),
                valid: Vec::new(),
                tags: Vec::new(),
            },
            Want::TextList => Column::TextList {
                list_offsets: vec![0],
                valid: Vec::new(),
                item_offsets: vec![0],
                item_data: Vec::new(),
                item_valid: Vec::new(),
                tags: Vec::new(),
            },
            Want::Number => Column::Number {
                values: Vec::new(),
                valid: Vec::new(),
                tags: Vec::new(),
            },
        }
    }

    fn len(&self) -> usize {
        match self {
            Column::Text { valid, .. }
            | Column::TextList { valid, .. }
            | Column::Number { valid, .. } => valid.len(),
        }
    }

    /// Drop the records after the first `n` (a line that turned out bad).
    fn truncate(&mut self, n: usize) {
        match self {
            Column::Text {
                offsets,
                data,
                valid,
                tags,
            } => {
                offsets.truncate(n + 1);
                data.truncate(offsets[n] as usize);
                valid.truncate(n);
                tags.truncate(n);
            }
            Column::TextList {
                list_offsets,
                valid,
                item_offsets,
                item_data,
                item_valid,
                tags,
            } => {
                list_offsets.truncate(n + 1);
                let items = list_offsets[n] as usize;
                item_offsets.truncate(items + 1);
                item_data.truncate(item_offsets[items] as usize);
                item_valid.truncate(items);
                valid.truncate(n);
                tags.truncate(n);
            }
            Column::Number {
                values,
                valid,
                tags,
            } => {
                values.truncate(n);
                valid.truncate(n);
                tags.truncate(n);
            }
        }
    }

    /// One record's value: `text` for a string or literal, `None` for no value.
    fn push_scalar(&mut self, tag: Tag, text: Option<&str>, number: Option<f64>) {
        match self {
            Column::Text {
                offsets,
                data,
                valid,
                tags,
            } => {
                push_text(offsets, data, valid, text);
                tags.push(tag as u8);
            }
            Column::TextList {
                list_offsets,
                valid,
                item_offsets,
                item_data,
                item_valid,
                tags,
            } => {
                // A scalar is a list of one; null and missing are no list.
                let present = !matches!(tag, Tag::Null | Tag::Missing);
                if present {
                    push_text(item_offsets, item_data, item_valid, text);
                }
                valid.push(present);
                list_offsets.push(item_valid.len() as i64);
                tags.push(tag as u8);
            }
            Column::Number {
                values,
                valid,
                tags,
            } => {
                values.push(number.unwrap_or(0.0));
                valid.push(number.is_some());
                tags.push(tag as u8);
            }
        }
    }

    /// Append another column's records (the merge of per-thread parts).
    fn extend(&mut self, other: Column) {
        match (self, other) {
            (
                Column::Text {
                    offsets,
                    data,
                    valid,
                    tags,
                },
                Column::Text {
                    offsets: o2,
                    data: d2,
                    valid: v2,
                    tags: t2,
                },
            ) => {
                let base = data.len() as i64;
                offsets.extend(o2[1..].iter().map(|x| x + base));
                data.extend_from_slice(&d2);
                valid.extend(v2);
                tags.extend(t2);
            }
            (
                Column::TextList {
                    list_offsets,
                    valid,
                    item_offsets,
                    item_data,
                    item_valid,
                    tags,
                },
                Column::TextList {
                    list_offsets: l2,
                    valid: v2,
                    item_offsets: io2,
                    item_data: id2,
                    item_valid: iv2,
                    tags: t2,
                },
            ) => {
                let lbase = item_valid.len() as i64;
                list_offsets.extend(l2[1..].iter().map(|x| x + lbase));
                let dbase = item_data.len() as i64;
                item_offsets.extend(io2[1..].iter().map(|x| x + dbase));
                item_data.extend_from_slice(&id2);
                item_valid.extend(iv2);
                valid.extend(v2);
                tags.extend(t2);
            }
            (
                Column::Number {
                    values,
                    valid,
                    tags,
                },
                Column::Number {
                    values: x2,
                    valid: v2,
                    tags: t2,
                },
            ) => {
                values.extend(x2);
                valid.extend(v2);
                tags.extend(t2);
            }
            _ => unreachable!("parts of one field have one kind"),
        }
    }
}

/// What a chunk of lines gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Records {
    /// Number of lines in the chunk (a last line without '\n' counts).
    pub line_count: u64,
    /// 0-based index of each good record's line in the chunk (blank lines count as lines).
    pub lines: Vec<u64>,
    /// Byte range of each good record's JSON text (trimmed) in the chunk.
    pub starts: Vec<u64>,
    pub ends: Vec<u64>,
    /// Lines that are not a JSON object: (0-based line index, message).
    pub bad: Vec<(u64, String)>,
    /// One column per requested field, over the good records.
    pub columns: Vec<Column>,
}

/// The requested paths as a tree, so one pass over a line serves every field.
#[derive(Debug, Default, Clone)]
struct Node {
    children: Vec<(Segment, Node)>,
    leaves: Vec<usize>,
}

impl Node {
    fn build(fields: &[Field]) -> Node {
        let mut root = Node::default();
        for (f, field) in fields.iter().enumerate() {
            let mut node = &mut root;
            for seg in &field.path {
                let pos = match node.children.iter().position(|(s, _)| s == seg) {
                    Some(p) => p,
                    None => {
                        node.children.push((seg.clone(), Node::default()));
                        node.children.len() - 1
                    }
                };
                node = &mut node.children[pos].1;
            }
            node.leaves.push(f);
        }
        root
    }

    fn key(&self, k: &str) -> Option<&Node> {
        self.children.iter().find_map(|(s, n)| match s {
            Segment::Key(name) if name == k => Some(n),
            _ => None,
        })
    }

    fn index(&self, i: usize) -> Option<&Node> {
        self.children.iter().find_map(|(s, n)| match s {
            Segment::Index(j) if *j == i => Some(n),
            _ => None,
        })
    }
}

/// The columns being built and which fields the current line has set.
struct Out<'a> {
    cols: &'a mut [Column],
    set: &'a mut [bool],
}

struct NodeSeed<'n, 'o, 'a> {
    node: &'n Node,
    out: &'o mut Out<'a>,
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let fresh: Vec<usize> = self
            .node
            .leaves
            .iter()
            .copied()
            .filter(|&f| !self.out.set[f])
            .collect();
        if fresh.is_empty() && !self.node.leaves.is_empty() && self.node.children.is_empty() {
            // A repeated key: the first value stands.
            de::IgnoredAny::deserialize(d)?;
            return Ok(());
        }
        if self.node.leaves.is_empty() {
            return d.deserialize_any(NodeVisitor {
                node: self.node,
                out: self.out,
            });
        }
        if self.node.children.is_empty() && fresh.len() == 1 {
            // The common case: one wanted value, built straight into its column.
            let f = fresh[0];
            self.out.set[f] = true;
            return d.deserialize_any(LeafVisitor {
                col: &mut self.out.cols[f],
            });
        }
        // Several wants on one value (`doc` and `doc.answer`): hold it once as a Value.
        let v = serde_json::Value::deserialize(d)?;
        for f in fresh {
            self.out.set[f] = true;
            de::Deserializer::deserialize_any(
                &v,
                LeafVisitor {
                    col: &mut self.out.cols[f],
                },
            )
            .map_err(de::Error::custom)?;
        }
        if !self.node.children.is_empty() {
            de::Deserializer::deserialize_any(
                &v,
                NodeVisitor {
                    node: self.node,
                    out: self.out,
                },
            )
            .map_err(de::Error::custom)?;
        }
        Ok(())
    }
}

use serde::Deserialize;

struct NodeVisitor<'n, 'o, 'a> {
    node: &'n Node,
    out: &'o mut Out<'a>,
}

/// An object key, borrowed from the line when it has no escapes.
struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Visitor<'de> for NodeVisitor<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            match self.node.key(&k) {
                Some(child) => map.next_value_seed(NodeSeed {
                    node: child,
                    out: &mut *self.out,
                })?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            let more = match self.node.index(i) {
                Some(child) => seq
                    .next_element_seed(NodeSeed {
                        node: child,
                        out: &mut *self.out,
                    })?
                    .is_some(),
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !more {
                return Ok(());
            }
            i += 1;
        }
    }

    // Scalars where the path wanted to go deeper: the field is missing.
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// Builds one wanted value into its column.
struct LeafVisitor<'c> {
    col: &'c mut Column,
}

fn number_text(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| "null".into())
}

impl<'de> Visitor<'de> for LeafVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.col.push_scalar(Tag::String, Some(v), None);
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        let t = if v { "true" } else { "false" };
        self.col
            .push_scalar(Tag::Bool, Some(t), Some(if v { 1.0 } else { 0.0 }));
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.col
            .push_scalar(Tag::Number, Some(&v.to_string()), Some(v as f64));
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.col
            .push_scalar(Tag::Number, Some(&v.to_string()), Some(v as f64));
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.col
            .push_scalar(Tag::Number, Some(&number_text(v)), Some(v));
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.col.push_scalar(Tag::Null, None, None);
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        match self.col {
            Column::TextList {
                list_offsets,
                valid,
                item_offsets,
                item_data,
                item_valid,
                tags,
            } => {
                let mut nested = false;
                while seq
                    .next_element_seed(ItemSeed {
                        offsets: &mut *item_offsets,
                        data: &mut *item_data,
                        valid: &mut *item_valid,
                        nested: &mut nested,
                    })?
                    .is_some()
                {}
                valid.push(true);
                list_offsets.push(item_valid.len() as i64);
                tags.push(if nested { Tag::Nested } else { Tag::Array } as u8);
                Ok(())
            }
            col => {
                let v = serde_json::Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
                col.push_scalar(Tag::Array, Some(&v.to_string()), None);
                Ok(())
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let v = serde_json::Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        self.col
            .push_scalar(Tag::Object, Some(&v.to_string()), None);
        Ok(())
    }
}

/// One element of a wanted list, as text.
struct ItemSeed<'c> {
    offsets: &'c mut Vec<i64>,
    data: &'c mut Vec<u8>,
    valid: &'c mut Vec<bool>,
    /// Set when an item is an array or object.
    nested: &'c mut bool,
}

impl<'de> DeserializeSeed<'de> for ItemSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        push_text(self.offsets, self.data, self.valid, Some(v));
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        push_text(
            self.offsets,
            self.data,
            self.valid,
            Some(if v { "true" } else { "false" }),
        );
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        push_text(self.offsets, self.data, self.valid, Some(&v.to_string()));
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        push_text(self.offsets, self.data, self.valid, Some(&v.to_string()));
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        push_text(self.offsets, self.data, self.valid, Some(&number_text(v)));
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        push_text(self.offsets, self.data, self.valid, None);
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        let v = serde_json::Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        push_text(self.offsets, self.data, self.valid, Some(&v.to_string()));
        *self.nested = true;
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let v = serde_json::Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        push_text(self.offsets, self.data, self.valid, Some(&v.to_string()));
        *self.nested = true;
        Ok(())
    }
}

/// Walk one line into the columns (every column gets exactly one entry, or none on error).
fn read_line(
    line: &[u8],
    root: &Node,
    cols: &mut [Column],
    set: &mut [bool],
) -> Result<(), String> {
    if !line.starts_with(b"{") {
        return Err("not a JSON object".into());
    }
    let mark = cols.first().map_or(0, Column::len);
    let first = walk(line, root, cols, set);
    let result = match first {
        Ok(()) => Ok(()),
        Err(msg) => {
            // Python's json module writes NaN and Infinity (lm-eval metrics can hold them); JSON
            // has no such literals. Read them as null rather than lose the line.
            rollback(cols, set, mark);
            match std::str::from_utf8(line)
                .ok()
                .and_then(python_literals_to_null)
            {
                Some(fixed) => walk(fixed.as_bytes(), root, cols, set).map_err(|_| msg),
                None => Err(msg),
            }
        }
    };
    match result {
        Ok(()) => {
            // Fields the line does not have.
            for (c, s) in cols.iter_mut().zip(set.iter_mut()) {
                if !*s {
                    c.push_scalar(Tag::Missing, None, None);
                }
                *s = false;
            }
            Ok(())
        }
        Err(e) => {
            rollback(cols, set, mark);
            Err(e)
        }
    }
}

fn rollback(cols: &mut [Column], set: &mut [bool], mark: usize) {
    for c in cols.iter_mut() {
        c.truncate(mark);
    }
    set.fill(false);
}

fn walk(line: &[u8], root: &Node, cols: &mut [Column], set: &mut [bool]) -> Result<(), String> {
    let mut de = serde_json::Deserializer::from_slice(line);
    let mut out = Out { cols, set };
    NodeSeed {
        node: root,
        out: &mut out,
    }
    .deserialize(&mut de)
    .and_then(|()| de.end())
    .map_err(|e| e.to_string())
}

/// `line` with the bare tokens `NaN`, `Infinity` and `-Infinity` (outside strings) replaced by
/// `null`; None when there are none.
fn python_literals_to_null(line: &str) -> Option<String> {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let (mut i, mut last, mut in_str, mut changed) = (0, 0, false, false);
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            in_str = c != b'"';
            i += 1;
            continue;
        }
        if c == b'"' {
            in_str = true;
            i += 1;
            continue;
        }
        let tok = [&b"-Infinity"[..], b"Infinity", b"NaN"]
            .into_iter()
            .find(|t| b[i..].starts_with(t));
        if let Some(t) = tok {
            out.push_str(&line[last..i]);
            out.push_str("null");
            i += t.len();
            last = i;
            changed = true;
            continue;
        }
        i += 1;
    }
    if !changed {
        return None;
    }
    out.push_str(&line[last..]);
    Some(out)
}

/// Byte ranges of the lines of `data` (a trailing line without '\n' counts).
fn line_spans(data: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::with_capacity(data.len() / 512 + 1);
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', data) {
        spans.push((start, nl));
        start = nl + 1;
    }
    if start < data.len() {
        spans.push((start, data.len()));
    }
    spans
}

fn trim_span(data: &[u8], (mut a, mut b): (usize, usize)) -> (usize, usize) {
    while a < b && data[a].is_ascii_whitespace() {
        a += 1;
    }
    while b > a && data[b - 1].is_ascii_whitespace() {
        b -= 1;
    }
    // A UTF-8 byte-order mark on the first line is not part of the record.
    if data[a..b].starts_with(b"\xEF\xBB\xBF") {
        a += 3;
    }
    (a, b)
}

/// Lines per parallel part: enough to amortise the part's merge, small enough to balance.
const PART_LINES: usize = 512;

/// Read every line of `data` (parallel over runs of lines) and return the requested fields as
/// columns.
pub fn read_json_lines(data: &[u8], fields: &[Field]) -> Records {
    let root = Node::build(fields);
    let spans = line_spans(data);
    let parts: Vec<Records> = spans
        .par_chunks(PART_LINES)
        .enumerate()
        .map(|(p, chunk)| {
            let base = p * PART_LINES;
            let mut cols: Vec<Column> = fields.iter().map(|f| Column::new(f.want)).collect();
            let mut set = vec![false; fields.len()];
            let mut r = Records {
                line_count: 0,
                lines: Vec::with_capacity(chunk.len()),
                starts: Vec::with_capacity(chunk.len()),
                ends: Vec::with_capacity(chunk.len()),
                bad: Vec::new(),
                columns: Vec::new(),
            };
            for (i, &span) in chunk.iter().enumerate() {
                let (a, b) = trim_span(data, span);
                if a == b {
                    continue; // blank line
                }
                match read_line(&data[a..b], &root, &mut cols, &mut set) {
                    Ok(()) => {
                        r.lines.push((base + i) as u64);
                        r.starts.push(a as u64);
                        r.ends.push(b as u64);
                    }
                    Err(msg) => r.bad.push(((base + i) as u64, msg)),
                }
            }
            r.columns = cols;
            r
        })
        .collect();
    let mut out = Records {
        line_count: spans.len() as u64,
        lines: Vec::new(),
        starts: Vec::new(),
        ends: Vec::new(),
        bad: Vec::new(),
        columns: fields.iter().map(|f| Column::new(f.want)).collect(),
    };
    for part in parts {
        out.lines.extend(part.lines);
        out.starts.extend(part.starts);
        out.ends.extend(part.ends);
        out.bad.extend(part.bad);
        for (c, pc) in out.columns.iter_mut().zip(part.columns) {
            c.extend(pc);
        }
    }
    out
}

fn push_text(offsets: &mut Vec<i64>, data: &mut Vec<u8>, valid: &mut Vec<bool>, t: Option<&str>) {
    if let Some(t) = t {
        data.extend_from_slice(t.as_bytes());
    }
    valid.push(t.is_some());
    offsets.push(data.len() as i64);
}

/// A value appended to a record by [`append_members`], one per record.
#[derive(Debug, Clone)]
pub enum Member<'a> {
    Number(Vec<Option<f64>>),
    /// Texts read in place (an Arrow column) or owned; missing is `null`.
    Text(Texts<'a>),
    Bool(Vec<Option<bool>>),
}

impl Member<'_> {
    fn len(&self) -> usize {
        match self {
            Member::Number(v) => v.len(),
            Member::Text(v) => v.len(),
            Member::Bool(v) => v.len(),
        }
    }
}

/// Shape errors of [`append_members`]' arguments (checked once, before any record is written).
pub fn check_members(
    starts: &[u64],
    ends: &[u64],
    members: &[(String, Member)],
) -> crate::Result<()> {
    let n = starts.len();
    if ends.len() != n {
        return Err(crate::Error::Shape(
            "starts and ends differ in length".into(),
        ));
    }
    for (key, m) in members {
        if m.len() != n {
            return Err(crate::Error::Shape(format!(
                "member {key:?} has {} values for {n} records",
                m.len()
            )));
        }
    }
    Ok(())
}

/// Rewrite records as JSON Lines with members appended: record `i` is `data[starts[i]..ends[i]]`,
/// a JSON object; the result holds each record with `"key": value` members added before its
/// closing brace, one per line. Everything else in the record stays byte for byte.
pub fn append_members(
    data: &[u8],
    starts: &[u64],
    ends: &[u64],
    members: &[(String, Member)],
) -> crate::Result<Vec<u8>> {
    check_members(starts, ends, members)?;
    let mut out = Vec::new();
    append_members_into(&mut out, data, starts, ends, members, 0..starts.len())?;
    Ok(out)
}

/// [`append_members`] for the records in `range`, appended to `out` (a caller writing a big log
/// reuses one buffer for pieces of it: fresh memory for a whole chunk's copy costs page faults).
/// The arguments must have passed [`check_members`].
pub fn append_members_into(
    out: &mut Vec<u8>,
    data: &[u8],
    starts: &[u64],
    ends: &[u64],
    members: &[(String, Member)],
    range: std::ops::Range<usize>,
) -> crate::Result<()> {
    let keys: Vec<Vec<u8>> = members
        .iter()
        .map(|(key, _)| {
            let mut k = Vec::new();
            write_string(&mut k, key);
            k.extend_from_slice(b": ");
            k
        })
        .collect();
    for i in range {
        let (a, b) = (starts[i] as usize, ends[i] as usize);
        if a >= b || b > data.len() || data[b - 1] != b'}' {
            return Err(crate::Error::InvalidValue(format!(
                "record {i} is not a JSON object at bytes {a}..{b}"
            )));
        }
        let body = &data[a..b - 1];
        out.extend_from_slice(body);
        let empty = body[1..].iter().all(u8::is_ascii_whitespace);
        for (k, ((_, m), key)) in members.iter().zip(&keys).enumerate() {
            if !(empty && k == 0) {
                out.extend_from_slice(b", ");
            }
            out.extend_from_slice(key);
            match m {
                Member::Number(v) => match v[i] {
                    Some(x) if x.is_finite() => {
                        serde_json::to_writer(&mut *out, &x).expect("finite floats serialise");
                    }
                    _ => out.extend_from_slice(b"null"),
                },
                Member::Text(v) => match v.cell(i) {
                    Cell::Text(s) => write_string(out, s),
                    Cell::Missing => out.extend_from_slice(b"null"),
                    Cell::BadUtf8 => {
                        return Err(crate::Error::InvalidValue(format!(
                            "member {:?}, record {i}: not UTF-8",
                            members[k].0
                        )))
                    }
                },
                Member::Bool(v) => out.extend_from_slice(match v[i] {
                    Some(true) => b"true",
                    Some(false) => b"false",
                    None => b"null",
                }),
            }
        }
        out.extend_from_slice(b"}\n");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn tag_codes_index_their_names() {
        for (code, tag) in super::Tag::ALL.iter().enumerate() {
            assert_eq!(*tag as u8 as usize, code);
            assert_eq!(super::Tag::NAMES[code], tag.as_str());
        }
    }

    use super::*;

    fn f(path: &str, want: Want) -> Field {
        Field {
            path: parse_path(path),
            want,
        }
    }

    fn text(c: &Column) -> Vec<Option<String>> {
        match c {
            Column::Text {
                offsets,
                data,
                valid,
                ..
            } => (0..valid.len())
                .map(|i| {
                    valid[i].then(|| {
                        String::from_utf8(
                            data[offsets[i] as usize..offsets[i + 1] as usize].to_vec(),
                        )
                        .unwrap()
                    })
                })
                .collect(),
            _ => panic!("not text"),
        }
    }

    fn lists(c: &Column) -> Vec<Option<Vec<Option<String>>>> {
        match c {
            Column::TextList {
                list_offsets,
                valid,
                item_offsets,
                item_data,
                item_valid,
                ..
            } => (0..valid.len())
                .map(|i| {
                    valid[i].then(|| {
                        (list_offsets[i] as usize..list_offsets[i + 1] as usize)
                            .map(|j| {
                                item_valid[j].then(|| {
                                    String::from_utf8(
                                        item_data[item_offsets[j] as usize
                                            ..item_offsets[j + 1] as usize]
                                            .to_vec(),
                                    )
                                    .unwrap()
                                })
                            })
                            .collect()
                    })
                })
                .collect(),
            _ => panic!("not a list"),
        }
    }

    #[test]
    fn paths_parse_keys_and_indexes() {
        assert_eq!(
            parse_path("resps.0.1"),
            vec![
                Segment::Key("resps".into()),
                Segment::Index(0),
                Segment::Index(1)
            ]
        );
        assert_eq!(parse_path("doc.answer")[1], Segment::Key("answer".into()));
        assert_eq!(parse_path("+1")[0], Segment::Key("+1".into()));
    }

    #[test]
    fn reads_nested_fields_and_skips_the_rest() {
        let data = br#"{"doc_id": 3, "doc": {"question": "q", "answer": "a\n#### 18"}, "arguments": {"gen_args_0": {"arg_0": "long prompt", "arg_1": {"until": ["Q:"]}}}, "resps": [["r1", "r2"]], "filtered_resps": ["18"], "exact_match": 1.0}
{"doc_id": 4, "doc": {"answer": "x"}, "resps": [["only"]], "exact_match": false, "filtered_resps": [["nested"]]}
"#;
        let fields = [
            f("doc_id", Want::Text),
            f("doc.answer", Want::Text),
            f("resps.0", Want::TextList),
            f("exact_match", Want::Number),
            f("filtered_resps.0", Want::Text),
            f("doc.question", Want::Text),
        ];
        let r = read_json_lines(data, &fields);
        assert!(r.bad.is_empty(), "{:?}", r.bad);
        assert_eq!(r.lines, vec![0, 1]);
        assert_eq!(
            text(&r.columns[0]),
            vec![Some("3".into()), Some("4".into())]
        );
        assert_eq!(
            text(&r.columns[1]),
            vec![Some("a\n#### 18".into()), Some("x".into())]
        );
        assert_eq!(
            lists(&r.columns[2]),
            vec![
                Some(vec![Some("r1".into()), Some("r2".into())]),
                Some(vec![Some("only".into())])
            ]
        );
        match &r.columns[3] {
            Column::Number {
                values,
                valid,
                tags,
            } => {
                assert_eq!(values, &vec![1.0, 0.0]);
                assert_eq!(valid, &vec![true, true]);
                assert_eq!(tags, &vec![Tag::Number as u8, Tag::Bool as u8]);
            }
            _ => panic!(),
        }
        // A list where a string was wanted comes back as its JSON text, tagged as an array.
        assert_eq!(
            text(&r.columns[4]),
            vec![Some("18".into()), Some("[\"nested\"]".into())]
        );
        assert_eq!(text(&r.columns[5]), vec![Some("q".into()), None]);
        match &r.columns[5] {
            Column::Text { tags, .. } => {
                assert_eq!(tags, &vec![Tag::String as u8, Tag::Missing as u8])
            }
            _ => panic!(),
        }
    }

    #[test]
    fn a_list_holding_arrays_or_objects_is_tagged_nested() {
        let data = b"{\"r\": [\"a\", \"b\"]}\n{\"r\": [\"a\", {\"x\": 1}]}\n{\"r\": [[\"a\"]]}\n{\"r\": []}\n{\"r\": \"s\"}";
        let r = read_json_lines(data, &[f("r", Want::TextList)]);
        match &r.columns[0] {
            Column::TextList { tags, .. } => assert_eq!(
                tags,
                &[
                    Tag::Array,
                    Tag::Nested,
                    Tag::Nested,
                    Tag::Array,
                    Tag::String
                ]
                .map(|t| t as u8)
            ),
            _ => panic!(),
        }
        // The items are still there, as JSON text, for a caller that wants them.
        assert_eq!(
            lists(&r.columns[0])[1],
            Some(vec![Some("a".into()), Some("{\"x\":1}".into())])
        );
    }

    #[test]
    fn bad_lines_are_reported_and_the_rest_read() {
        let data = b"{\"a\": \"1\"}\n\n{\"a\": \"2\"\n[1, 2]\n  {\"a\": \"\\u00e9\"}  \r\n{\"a\": \"3\"} trailing\n{\"a\": \"\xff\"}\n{\"a\":4}";
        let r = read_json_lines(data, &[f("a", Want::Text)]);
        assert_eq!(r.lines, vec![0, 4, 7]);
        assert_eq!(
            text(&r.columns[0]),
            vec![Some("1".into()), Some("é".into()), Some("4".into())]
        );
        let bad: Vec<u64> = r.bad.iter().map(|b| b.0).collect();
        assert_eq!(bad, vec![2, 3, 5, 6]);
        assert!(r.bad[0].1.contains("EOF"), "{}", r.bad[0].1);
        assert_eq!(r.bad[1].1, "not a JSON object");
        assert!(r.bad[2].1.contains("trailing"), "{}", r.bad[2].1);
        assert!(r.bad[3].1.contains("unicode"), "{}", r.bad[3].1);
        // Spans point at the trimmed record text.
        let (a, b) = (r.starts[1] as usize, r.ends[1] as usize);
        assert_eq!(&data[a..b], b"{\"a\": \"\\u00e9\"}");
    }

    #[test]
    fn parts_merge_in_line_order() {
        // More lines than one parallel part, with bad and blank lines spread through them.
        let mut data = String::new();
        for i in 0..3000 {
            match i % 7 {
                3 => data.push_str("{broken\n"),
                5 => data.push('\n'),
                _ => data.push_str(&format!(
                    "{{\"a\": \"v{i}\", \"b\": [\"x{i}\", {i}], \"a\": \"dup\"}}\n"
                )),
            }
        }
        let r = read_json_lines(
            data.as_bytes(),
            &[f("a", Want::Text), f("b", Want::TextList)],
        );
        assert_eq!(r.line_count, 3000);
        let good: Vec<u64> = (0..3000).filter(|i| i % 7 != 3 && i % 7 != 5).collect();
        assert_eq!(r.lines, good);
        assert_eq!(r.bad.len(), (0..3000).filter(|i| i % 7 == 3).count());
        let a = text(&r.columns[0]);
        let b = lists(&r.columns[1]);
        for (k, &i) in good.iter().enumerate() {
            // A repeated key: the first value stands.
            assert_eq!(a[k].as_deref(), Some(format!("v{i}").as_str()));
            assert_eq!(b[k], Some(vec![Some(format!("x{i}")), Some(i.to_string())]));
        }
    }

    #[test]
    fn python_nan_and_infinity_read_as_null() {
        let data = br#"{"a": NaN, "b": "NaN in a string", "c": [-Infinity, 1]}"#;
        let r = read_json_lines(
            data,
            &[
                f("a", Want::Number),
                f("b", Want::Text),
                f("c", Want::TextList),
            ],
        );
        assert!(r.bad.is_empty(), "{:?}", r.bad);
        match &r.columns[0] {
            Column::Number { valid, .. } => assert_eq!(valid, &vec![false]),
            _ => panic!(),
        }
        assert_eq!(text(&r.columns[1]), vec![Some("NaN in a string".into())]);
        assert_eq!(
            lists(&r.columns[2]),
            vec![Some(vec![None, Some("1".into())])]
        );
        assert!(python_literals_to_null(r#"{"x": "a\"NaN"}"#).is_none());
    }

    #[test]
    fn whole_and_deeper_fields_of_one_value() {
        let data = br#"{"doc": {"id": 7, "answer": "5"}}"#;
        let r = read_json_lines(data, &[f("doc", Want::Text), f("doc.answer", Want::Text)]);
        // An object asked for as text comes back as (compact) JSON text.
        let whole: serde_json::Value =
            serde_json::from_str(text(&r.columns[0])[0].as_ref().unwrap()).unwrap();
        assert_eq!(whole, serde_json::json!({"id": 7, "answer": "5"}));
        assert_eq!(text(&r.columns[1]), vec![Some("5".into())]);
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        // Skipped values are skipped without recursion; a wanted one deeper than serde_json's
        // recursion limit makes the line bad, never a stack overflow.
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        let r = read_json_lines(deep.as_bytes(), &[f("b", Want::Text)]);
        assert_eq!(r.lines.len(), 1);
        let r = read_json_lines(deep.as_bytes(), &[f("a", Want::Text)]);
        assert_eq!(r.bad.len(), 1);
        assert!(r.bad[0].1.contains("recursion"), "{}", r.bad[0].1);
        let r = read_json_lines(deep.as_bytes(), &[f("a.0.0.0", Want::Text)]);
        assert_eq!(r.lines.len() + r.bad.len(), 1);
    }

    #[test]
    fn members_are_appended_byte_for_byte() {
        use crate::check::Input;
        let data = b"{\"x\": 1}\n{ }\n";
        let r = read_json_lines(data, &[]);
        let out = append_members(
            data,
            &r.starts,
            &r.ends,
            &[
                ("score".into(), Member::Number(vec![Some(1.0), None])),
                (
                    "why".into(),
                    Member::Text(Texts::Inputs(&[
                        Input::Text("a \"q\"\n".into()),
                        Input::Missing,
                    ])),
                ),
                ("ok".into(), Member::Bool(vec![Some(true), Some(false)])),
            ],
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"x\": 1, \"score\": 1.0, \"why\": \"a \\\"q\\\"\\n\", \"ok\": true}\n{ \"score\": null, \"why\": null, \"ok\": false}\n"
        );
        assert!(append_members(b"[1]", &[0], &[3], &[]).is_err());
        assert!(append_members(
            data,
            &r.starts,
            &r.ends,
            &[("s".into(), Member::Bool(vec![None]))]
        )
        .is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Whatever the bytes, reading never panics and every line is either a record or bad.
        #[test]
        fn never_panics_and_accounts_for_every_line(s in r#"[{}\[\]":,a-c0-9 \n\\]{0,200}"#) {
            let r = read_json_lines(s.as_bytes(), &[f("a", Want::Text), f("b.0", Want::TextList), f("c", Want::Number)]);
            let nonblank = s.split('\n').filter(|l| !l.trim().is_empty()).count();
            proptest::prop_assert_eq!(r.lines.len() + r.bad.len(), nonblank);
        }
    }
}
