//! Building the columns: one [`Column`] per requested field, as Arrow-style buffers (offsets,
//! bytes, validity, the JSON type found), appended to record by record, cut back when a line turns
//! out bad, and merged across the parallel parts.

use super::{Tag, Want};

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
    pub(super) fn new(want: Want) -> Column {
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

    pub(super) fn len(&self) -> usize {
        match self {
            Column::Text { valid, .. }
            | Column::TextList { valid, .. }
            | Column::Number { valid, .. } => valid.len(),
        }
    }

    /// Drop the records after the first `n` (a line that turned out bad).
    pub(super) fn truncate(&mut self, n: usize) {
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
    pub(super) fn push_scalar(&mut self, tag: Tag, text: Option<&str>, number: Option<f64>) {
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
    pub(super) fn extend(&mut self, other: Column) {
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

pub(super) fn push_text(
    offsets: &mut Vec<i64>,
    data: &mut Vec<u8>,
    valid: &mut Vec<bool>,
    t: Option<&str>,
) {
    if let Some(t) = t {
        data.extend_from_slice(t.as_bytes());
    }
    valid.push(t.is_some());
    offsets.push(data.len() as i64);
}
