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
//!
//! Files: `visitors` (the serde walk over one line), `columns` (building the columns), `annotate`
//! (the annotated copy, [`append_members`]); this file holds the field types and the line driver.

use rayon::prelude::*;

use crate::names::str_enum;

mod annotate;
mod columns;
mod visitors;

pub use annotate::{append_members, append_members_into, check_members, Member};
pub use columns::Column;
use visitors::{walk, Node};

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
