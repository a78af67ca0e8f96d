//! Rows of flat Arrow columns as JSON Lines: what Python's `json.dumps(row, ensure_ascii=False)`
//! writes for each row, in one pass over the column buffers (the command line's per-item output;
//! building each line with Arrow string kernels took as long as checking the rows).

use crate::check::Cell;
use crate::column::ArrowTexts;
use crate::error::{Error, Result};

/// One output column: values read in place, `valid[i] == false` (when given) meaning null.
#[derive(Debug, Clone, Copy)]
pub enum JsonColumn<'a> {
    Text(ArrowTexts<'a>),
    Int(&'a [i64], Option<&'a [bool]>),
    Bool(&'a [bool], Option<&'a [bool]>),
}

impl JsonColumn<'_> {
    fn len(&self) -> usize {
        match self {
            JsonColumn::Text(t) => t.len(),
            JsonColumn::Int(v, _) => v.len(),
            JsonColumn::Bool(v, _) => v.len(),
        }
    }
}

/// Escaped and quoted as JSON (serde_json escapes what `json.dumps` escapes: `"`, `\` and the
/// control characters below U+0020, with the same short forms and lowercase `\u00xx`), so output
/// stays valid JSON whatever the model wrote.
pub(crate) fn write_string(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("writing to a Vec cannot fail");
}

/// Every row as one JSON object (members in column order, `", "` and `": "` separators, as
/// `json.dumps` writes them) followed by a newline. Columns must have equal lengths; a text cell
/// that is not UTF-8 is an error (Arrow string columns are UTF-8 by contract).
pub fn write_rows(columns: &[(String, JsonColumn<'_>)]) -> Result<Vec<u8>> {
    let n = columns.first().map_or(0, |(_, c)| c.len());
    if let Some((name, c)) = columns.iter().find(|(_, c)| c.len() != n) {
        return Err(Error::Shape(format!(
            "column {name:?} has {} values, the first column {n}",
            c.len()
        )));
    }
    let keys: Vec<Vec<u8>> = columns
        .iter()
        .enumerate()
        .map(|(k, (name, _))| {
            let mut key = Vec::from(if k == 0 { "{" } else { ", " }.as_bytes());
            write_string(&mut key, name);
            key.extend_from_slice(b": ");
            key
        })
        .collect();
    let text_bytes: usize = columns
        .iter()
        .map(|(_, c)| match c {
            JsonColumn::Text(t) => (0..t.len()).map(|i| t.size(i) + 2).sum(),
            _ => 6 * n,
        })
        .sum();
    let key_bytes: usize = keys.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(text_bytes + n * (key_bytes + 2));
    let mut itoa = itoa::Buffer::new();
    for i in 0..n {
        for (key, (name, col)) in keys.iter().zip(columns) {
            out.extend_from_slice(key);
            let valid = |v: Option<&[bool]>| v.is_none_or(|v| v[i]);
            match col {
                JsonColumn::Text(t) => match t.cell(i) {
                    Cell::Text(s) => write_string(&mut out, s),
                    Cell::Missing => out.extend_from_slice(b"null"),
                    Cell::BadUtf8 => {
                        return Err(Error::InvalidValue(format!(
                            "column {name:?}, row {i}: not UTF-8"
                        )))
                    }
                },
                JsonColumn::Int(v, m) if valid(*m) => {
                    out.extend_from_slice(itoa.format(v[i]).as_bytes())
                }
                JsonColumn::Bool(v, m) if valid(*m) => {
                    out.extend_from_slice(if v[i] { b"true" } else { b"false" })
                }
                _ => out.extend_from_slice(b"null"),
            }
        }
        out.extend_from_slice(b"}\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::column::StringColumn;

    #[test]
    fn rows_are_what_json_dumps_writes() {
        let texts: StringColumn = [Some("a\"b\\c\nd\te\u{1}é"), None]
            .into_iter()
            .collect::<StringColumn>();
        let t = ArrowTexts::new(&texts.offsets, &texts.data, Some(&texts.validity), 0).unwrap();
        let cols = [
            ("line".to_string(), JsonColumn::Int(&[1, 2], None)),
            (
                "ok \"x\"".to_string(),
                JsonColumn::Bool(&[true, false], Some(&[true, false])),
            ),
            ("text".to_string(), JsonColumn::Text(t)),
        ];
        let out = String::from_utf8(write_rows(&cols).unwrap()).unwrap();
        assert_eq!(
            out,
            "{\"line\": 1, \"ok \\\"x\\\"\": true, \"text\": \"a\\\"b\\\\c\\nd\\te\\u0001é\"}\n\
             {\"line\": 2, \"ok \\\"x\\\"\": null, \"text\": null}\n"
        );
        assert!(write_rows(&[]).unwrap().is_empty());
    }

    #[test]
    fn unequal_columns_and_bad_text_are_errors() {
        let cols = [
            ("a".to_string(), JsonColumn::Int(&[1, 2], None)),
            ("b".to_string(), JsonColumn::Int(&[1], None)),
        ];
        assert!(matches!(write_rows(&cols), Err(Error::Shape(_))));
        let bad = ArrowTexts::new(&[0, 1], b"\xff", None, 0).unwrap();
        let r = write_rows(&[("t".to_string(), JsonColumn::Text(bad))]);
        assert!(matches!(r, Err(Error::InvalidValue(_))));
    }
}
