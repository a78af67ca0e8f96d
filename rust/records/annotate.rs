//! The annotated copy: records rewritten as JSON Lines with members appended before each closing
//! brace, everything else byte for byte (a rescored log keeps its own fields).

use crate::check::Cell;
use crate::column::Texts;
use crate::json_out::write_string;

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
    use super::*;
    use crate::records::read_json_lines;

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
}
