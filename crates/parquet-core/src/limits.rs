//! The accessors of a reader's limits, shared by the file crates' `Limits` types.

/// Writes, for each field of a `Limits` struct, a getter of its name and a `with_`
/// setter, documented as given: the file crates name their limits alike (`max_footer_size`,
/// `max_record_values`) and give them the same accessors.
///
/// ```
/// pub struct Limits {
///     max_footer_size: u64,
/// }
///
/// impl Limits {
///     parquet_core::limit_accessors!(
///         /// The largest footer, in bytes.
///         max_footer_size, with_max_footer_size: u64
///     );
/// }
///
/// let limits = Limits { max_footer_size: 1 }.with_max_footer_size(2);
/// assert_eq!(limits.max_footer_size(), 2);
/// ```
#[macro_export]
macro_rules! limit_accessors {
    ($($(#[$doc:meta])* $name:ident, $with:ident: $ty:ty);* $(;)?) => {
        $(
            $(#[$doc])*
            pub const fn $name(&self) -> $ty {
                self.$name
            }

            #[doc = concat!("Sets [`", stringify!($name), "`](Self::", stringify!($name), ").")]
            #[must_use]
            pub const fn $with(mut self, value: $ty) -> Self {
                self.$name = value;
                self
            }
        )*
    };
}
