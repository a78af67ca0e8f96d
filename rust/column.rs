//! Columns of texts in Arrow's layout, read in place and built for hand-over.
//!
//! A batch of a million responses is half a gigabyte of text. Copying every cell into its own
//! `String` before checking it cost more than the checks (allocation, and the kernel zeroing the
//! fresh pages), so the batch driver reads an Arrow string array's buffers where they are:
//! [`Texts`] yields borrowed [`Cell`]s. Answers go back the same way: [`StringColumn`] is an Arrow
//! large-string array's buffers, which the caller wraps without building a string object per row.

use crate::check::{Cell, Input};
use crate::error::{Error, Result};

/// The buffers of an Arrow `large_string` / `large_binary` array (offsets `n + 1` int64 into
/// `data`, an optional validity bitmap starting at bit `bit_offset`), validated once so that
/// reading a cell cannot fail. Invalid UTF-8 in a cell reads as [`Cell::BadUtf8`].
#[derive(Debug, Clone, Copy)]
pub struct ArrowTexts<'a> {
    offsets: &'a [i64],
    data: &'a [u8],
    validity: Option<&'a [u8]>,
    bit_offset: usize,
}

impl<'a> ArrowTexts<'a> {
    pub fn new(
        offsets: &'a [i64],
        data: &'a [u8],
        validity: Option<&'a [u8]>,
        bit_offset: usize,
    ) -> Result<Self> {
        let n = offsets.len().saturating_sub(1);
        if let Some(v) = validity {
            if (bit_offset + n).div_ceil(8) > v.len() {
                return Err(Error::Shape("validity bitmap too short".into()));
            }
        }
        let mut prev = offsets.first().copied().unwrap_or(0);
        if prev < 0 {
            return Err(Error::Shape("arrow offsets out of range at item 0".into()));
        }
        for (i, &o) in offsets.iter().enumerate().skip(1) {
            if o < prev || o as u64 > data.len() as u64 {
                return Err(Error::Shape(format!(
                    "arrow offsets out of range at item {}",
                    i - 1
                )));
            }
            prev = o;
        }
        Ok(ArrowTexts {
            offsets,
            data,
            validity,
            bit_offset,
        })
    }

    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn is_valid(&self, i: usize) -> bool {
        match self.validity {
            None => true,
            Some(v) => {
                let bit = self.bit_offset + i;
                v[bit / 8] & (1 << (bit % 8)) != 0
            }
        }
    }

    /// The bytes of cell `i` as stored (empty for a missing cell), whether UTF-8 or not.
    pub fn raw(&self, i: usize) -> &'a [u8] {
        if self.is_valid(i) {
            self.bytes(i)
        } else {
            &[]
        }
    }

    fn bytes(&self, i: usize) -> &'a [u8] {
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Bytes of text in cell `i` (0 when missing), without validating it.
    pub fn size(&self, i: usize) -> usize {
        if self.is_valid(i) {
            self.bytes(i).len()
        } else {
            0
        }
    }

    pub fn cell(&self, i: usize) -> Cell<'a> {
        self.stored(i).cell()
    }

    /// Cell `i` as stored, its UTF-8 not yet validated.
    pub fn stored(&self, i: usize) -> Stored<'a> {
        Stored::Arrow(self.is_valid(i).then(|| self.bytes(i)))
    }
}

/// A cell as stored, for another thread to read: an Arrow cell's bytes (`None` when null) are
/// validated as UTF-8 by [`Stored::cell`], on the thread that checks the item, not on the one that
/// hands it over (validating 16,000 MATH responses takes that thread milliseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored<'a> {
    Cell(Cell<'a>),
    Arrow(Option<&'a [u8]>),
}

impl<'a> Stored<'a> {
    pub fn cell(&self) -> Cell<'a> {
        match *self {
            Stored::Cell(c) => c,
            Stored::Arrow(None) => Cell::Missing,
            Stored::Arrow(Some(b)) => std::str::from_utf8(b).map_or(Cell::BadUtf8, Cell::Text),
        }
    }
}

/// A column of input cells: owned inputs, cells borrowed from their owner (the bindings' Python
/// strings, read in place), or an Arrow array read in place.
#[derive(Debug, Clone, Copy)]
pub enum Texts<'a> {
    Inputs(&'a [Input]),
    Cells(&'a [Cell<'a>]),
    Arrow(ArrowTexts<'a>),
}

impl<'a> Texts<'a> {
    pub fn len(&self) -> usize {
        match self {
            Texts::Inputs(v) => v.len(),
            Texts::Cells(v) => v.len(),
            Texts::Arrow(a) => a.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn cell(&self, i: usize) -> Cell<'a> {
        match self {
            Texts::Inputs(v) => v[i].cell(),
            Texts::Cells(v) => v[i],
            Texts::Arrow(a) => a.cell(i),
        }
    }

    /// Cell `i` as stored (see [`Stored`]).
    pub fn stored(&self, i: usize) -> Stored<'a> {
        match self {
            Texts::Arrow(a) => a.stored(i),
            _ => Stored::Cell(self.cell(i)),
        }
    }

    /// Bytes of text in cell `i` (0 when missing), without validating it.
    pub fn size(&self, i: usize) -> usize {
        match self {
            Texts::Inputs(v) => match &v[i] {
                Input::Text(t) => t.len(),
                _ => 0,
            },
            Texts::Cells(v) => match v[i] {
                Cell::Text(t) => t.len(),
                _ => 0,
            },
            Texts::Arrow(a) => a.size(i),
        }
    }
}

/// The buffers of an Arrow `large_string` array: `offsets` (n + 1), UTF-8 `data`, and a validity
/// bitmap (bit set = present) with `nulls` unset bits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StringColumn {
    pub offsets: Vec<i64>,
    pub data: Vec<u8>,
    pub validity: Vec<u8>,
    pub nulls: usize,
}

impl StringColumn {
    pub fn with_capacity(n: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        StringColumn {
            offsets,
            data: Vec::with_capacity(bytes),
            validity: Vec::with_capacity(n.div_ceil(8)),
            nulls: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Add the items of `other` after these.
    pub fn append(&mut self, other: &StringColumn) {
        let (base, shift) = (self.data.len() as i64, self.len() % 8);
        self.data.extend_from_slice(&other.data);
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + base));
        self.nulls += other.nulls;
        if shift == 0 {
            self.validity.extend_from_slice(&other.validity);
        } else {
            // Not on a byte boundary: each byte of `other` spans two of ours.
            let first = self.len() - other.len();
            for (k, n) in (first..self.len()).enumerate() {
                if n % 8 == 0 {
                    self.validity.push(0);
                }
                if other.validity[k / 8] & (1 << (k % 8)) != 0 {
                    self.validity[n / 8] |= 1 << (n % 8);
                }
            }
        }
    }

    pub fn push(&mut self, s: Option<&str>) {
        let i = self.len();
        if i % 8 == 0 {
            self.validity.push(0);
        }
        match s {
            Some(t) => {
                self.data.extend_from_slice(t.as_bytes());
                self.validity[i / 8] |= 1 << (i % 8);
            }
            None => self.nulls += 1,
        }
        self.offsets.push(self.data.len() as i64);
    }
}

impl<'s> FromIterator<Option<&'s str>> for StringColumn {
    fn from_iter<I: IntoIterator<Item = Option<&'s str>>>(iter: I) -> Self {
        let it = iter.into_iter();
        let mut col = StringColumn::with_capacity(it.size_hint().0, 0);
        for s in it {
            col.push(s);
        }
        col
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Columns joined at any points equal the column pushed item by item.
        #[test]
        fn appended_columns_equal_one_column(
            items in proptest::collection::vec(proptest::option::of("[a-zé]{0,3}"), 0..40),
            cuts in proptest::collection::vec(0usize..40, 0..5),
        ) {
            let whole: StringColumn = items.iter().map(Option::as_deref).collect();
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(items.len())).collect();
            cuts.push(0);
            cuts.push(items.len());
            cuts.sort_unstable();
            let mut joined = StringColumn::with_capacity(0, 0);
            for w in cuts.windows(2) {
                let part: StringColumn = items[w[0]..w[1]].iter().map(Option::as_deref).collect();
                joined.append(&part);
            }
            proptest::prop_assert_eq!(joined, whole);
        }
    }

    #[test]
    fn arrow_cells_read_in_place() {
        let data = b"abc\xffxyz";
        let offsets = [0i64, 3, 4, 4, 7];
        let validity = [0b1101u8]; // item 1 missing
        let t = ArrowTexts::new(&offsets, data, Some(&validity), 0).unwrap();
        assert_eq!(t.len(), 4);
        let cells: Vec<Cell> = (0..4).map(|i| t.cell(i)).collect();
        assert_eq!(
            cells,
            [
                Cell::Text("abc"),
                Cell::Missing,
                Cell::Text(""),
                Cell::Text("xyz")
            ]
        );
        let no_bitmap = ArrowTexts::new(&offsets, data, None, 0).unwrap();
        assert_eq!(no_bitmap.cell(1), Cell::BadUtf8);
        assert_eq!(Texts::Arrow(no_bitmap).size(1), 1);
        assert_eq!(Texts::Arrow(t).size(1), 0);
        // A sliced array: the bitmap starts at a bit offset.
        let shifted = [0b1101u8 << 3, 0];
        let s = ArrowTexts::new(&offsets, data, Some(&shifted), 3).unwrap();
        assert_eq!((0..4).map(|i| s.cell(i)).collect::<Vec<_>>(), cells);
    }

    #[test]
    fn bad_buffers_are_shape_errors() {
        let data = b"abc";
        for offsets in [&[0i64, 4][..], &[2, 1], &[-1, 2]] {
            assert!(matches!(
                ArrowTexts::new(offsets, data, None, 0),
                Err(Error::Shape(_))
            ));
        }
        assert!(matches!(
            ArrowTexts::new(&[0; 10], data, Some(&[0xff]), 0),
            Err(Error::Shape(_))
        ));
        assert!(ArrowTexts::new(&[], data, None, 0).unwrap().is_empty());
    }

    #[test]
    fn string_column_is_arrow_layout() {
        let c: StringColumn = [Some("ab"), None, Some(""), Some("é")]
            .into_iter()
            .collect::<StringColumn>();
        assert_eq!(c.offsets, [0, 2, 2, 2, 4]);
        assert_eq!(c.data, "abé".as_bytes());
        assert_eq!(c.validity, [0b1101]);
        assert_eq!(c.nulls, 1);
        let t = ArrowTexts::new(&c.offsets, &c.data, Some(&c.validity), 0).unwrap();
        assert_eq!(t.cell(3), Cell::Text("é"));
        assert_eq!(t.cell(1), Cell::Missing);
    }
}
