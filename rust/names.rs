//! String names of the core's fieldless enums (modes, policies, reasons, statistics options): one
//! macro for every protocol, so each name is written once and the Python layer, the config reader
//! and the error messages all read the same table.

/// `str_enum!(Type, "label" { Variant => "name", ... })` gives `Type`:
/// - `NAMES` and `ALL`: the names and the variants in declaration order (for `#[repr(u8)]` enums
///   this is the wire order of the batch arrays; a unit test beside each such enum checks it);
/// - `as_str` and `Display`: the name;
/// - `FromStr`: the variant, or `Error::InvalidValue` naming `label` and every accepted name.
macro_rules! str_enum {
    ($ty:ident, $label:literal { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($name),+];
            /// Every variant, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The lower-case name used by the Python API, config files and output files.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::error::Error;

            fn from_str(s: &str) -> $crate::error::Result<Self> {
                match s {
                    $($name => Ok($ty::$variant),)+
                    _ => Err($crate::error::Error::InvalidValue(format!(
                        concat!($label, " must be one of {}, got {:?}"),
                        $crate::names::quoted(<$ty>::NAMES),
                        s
                    ))),
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use str_enum;

/// `'a', 'b', 'c'`: the accepted names in an error message.
pub(crate) fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use crate::error::Error;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Colour {
        Red,
        DarkBlue,
    }
    str_enum!(Colour, "colour" { Red => "red", DarkBlue => "dark_blue" });

    #[test]
    fn names_round_trip_and_errors_list_every_name() {
        for c in Colour::ALL {
            assert_eq!(c.as_str().parse::<Colour>(), Ok(*c));
            assert_eq!(c.to_string(), c.as_str());
        }
        assert_eq!(Colour::NAMES, ["red", "dark_blue"]);
        assert_eq!(
            "green".parse::<Colour>(),
            Err(Error::InvalidValue(
                "colour must be one of 'red', 'dark_blue', got \"green\"".into()
            ))
        );
    }
}
