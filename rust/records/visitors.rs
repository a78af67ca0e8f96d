//! The JSON visitors: the requested paths as a tree ([`Node`]), walked over one line with serde so
//! that a wanted value is built straight into its column and every other member is skipped as
//! `IgnoredAny` (no allocation).

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

use super::columns::{push_text, Column};
use super::{Field, Segment, Tag};

/// The requested paths as a tree, so one pass over a line serves every field.
#[derive(Debug, Default, Clone)]
pub(super) struct Node {
    children: Vec<(Segment, Node)>,
    leaves: Vec<usize>,
}

impl Node {
    pub(super) fn build(fields: &[Field]) -> Node {
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

pub(super) fn walk(
    line: &[u8],
    root: &Node,
    cols: &mut [Column],
    set: &mut [bool],
) -> Result<(), String> {
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
