//! A deal seed with the deal source it seeds, checked against that source's range once, where
//! it is made ([`DealSeed::new`]); what consumes it takes the seed in the width its generator
//! needs ([`DealSeed::generator`]: a .NET `int`, a ChaCha `u64`), never through a cast.
//!
//! Invariant: a `DealSeed` that exists lies in its source's [`DealSourceKind::seed_range`] (its
//! generator's width is the range; a test ties the two).

use super::DealSourceKind;

/// A seed its deal source takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DealSeed {
    value: i64,
    generator: GeneratorSeed,
}

/// The seed as its generator takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GeneratorSeed {
    /// The .NET `System.Random` seed of dotnet-replay.
    Dotnet(i32),
    /// The ChaCha key material of chacha.
    Chacha(u64),
}

/// A seed its deal source cannot take: says which, why and the valid range
/// (`2147483648 is not a .NET int; dotnet-replay seeds lie in -2147483648 to 2147483647`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{value} {}; {} seeds lie in {}", self.problem(), deal_source.as_str(), deal_source.seed_range_text())]
pub struct SeedError {
    /// The deal source.
    pub deal_source: DealSourceKind,
    /// The seed given.
    pub value: i64,
}

impl SeedError {
    /// What is wrong with the seed (`is not a .NET int`, `is negative`).
    pub fn problem(&self) -> &'static str {
        match self.deal_source {
            DealSourceKind::DotnetReplay => "is not a .NET int",
            DealSourceKind::Chacha => "is negative",
        }
    }
}

impl DealSeed {
    /// `value` as a seed of `source`, or why it is not one.
    ///
    /// ```
    /// use briscola_core::deal::{DealSeed, DealSourceKind, GeneratorSeed};
    /// let s = DealSeed::new(DealSourceKind::DotnetReplay, -7).unwrap();
    /// assert_eq!(s.generator(), GeneratorSeed::Dotnet(-7));
    /// let e = DealSeed::new(DealSourceKind::Chacha, -1).unwrap_err();
    /// assert_eq!(e.to_string(), "-1 is negative; chacha seeds lie in 0 to 9223372036854775807");
    /// ```
    pub fn new(source: DealSourceKind, value: i64) -> Result<DealSeed, SeedError> {
        let generator = match source {
            DealSourceKind::DotnetReplay => i32::try_from(value).ok().map(GeneratorSeed::Dotnet),
            DealSourceKind::Chacha => u64::try_from(value).ok().map(GeneratorSeed::Chacha),
        };
        generator
            .map(|generator| DealSeed { value, generator })
            .ok_or(SeedError {
                deal_source: source,
                value,
            })
    }

    /// The deal source it seeds.
    pub fn source(self) -> DealSourceKind {
        match self.generator {
            GeneratorSeed::Dotnet(_) => DealSourceKind::DotnetReplay,
            GeneratorSeed::Chacha(_) => DealSourceKind::Chacha,
        }
    }

    /// The seed as written (the study file's, the spec's).
    pub fn value(self) -> i64 {
        self.value
    }

    /// A chacha seed's key material (`value` >= 0), or why it is not one: for the places that
    /// only ever deal with chacha (sweeps, leagues, the Python environments).
    pub fn chacha_key(value: i64) -> Result<u64, SeedError> {
        u64::try_from(value).map_err(|_| SeedError {
            deal_source: DealSourceKind::Chacha,
            value,
        })
    }

    /// The seed in its generator's width.
    pub fn generator(self) -> GeneratorSeed {
        self.generator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges' ends ([`DealSourceKind::seed_range`], the text every message prints) are
    /// seeds and one past them are not, for both sources.
    #[test]
    fn the_range_ends_are_seeds_and_one_past_them_is_not() {
        use DealSourceKind::{Chacha, DotnetReplay};
        for source in [DotnetReplay, Chacha] {
            let (lo, hi) = source.seed_range();
            assert_eq!(DealSeed::new(source, lo).unwrap().value(), lo);
            assert_eq!(DealSeed::new(source, lo).unwrap().source(), source);
            assert_eq!(DealSeed::new(source, hi).unwrap().value(), hi);
            if lo > i64::MIN {
                assert_eq!(DealSeed::new(source, lo - 1).unwrap_err().value, lo - 1);
            }
            if hi < i64::MAX {
                assert!(DealSeed::new(source, hi + 1).is_err());
            }
        }
        assert_eq!(
            DealSeed::new(DotnetReplay, i32::MIN as i64)
                .unwrap()
                .generator(),
            GeneratorSeed::Dotnet(i32::MIN)
        );
        assert_eq!(
            DealSeed::new(Chacha, i64::MAX).unwrap().generator(),
            GeneratorSeed::Chacha(i64::MAX as u64)
        );
    }
}
