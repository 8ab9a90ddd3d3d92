//! How the registry of policy kinds becomes [`PolicyKind`]: the `policy_kinds!` macro, which
//! the policy module invokes with one line per kind (its variant, its name in study files and
//! specs, and the value in the kind's own file implementing [`KindSeam`]), and what every kind
//! shares (the built-in names, the default threshold, the released simulator's names). A new
//! kind is its own file plus `mod <name>;` and one registry line in `policy/mod.rs`.
//!
//! Invariant: a kind's name in study files, its serde name and its seam come from the same
//! line, so they cannot drift; the lines' order is `PolicyKind`'s order (it orders keys, so a
//! new kind goes at the end).

use super::{DEFAULT_THRESHOLD, PolicyKind};

/// Declares [`PolicyKind`] and its table of seams from one line per kind.
macro_rules! policy_kinds {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal => $seam:expr, )+) => {
        /// Which kind of policy a spec is (its rule, agent or network).
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
            ::serde::Serialize, ::serde::Deserialize,
        )]
        pub enum PolicyKind {
            $( $(#[$doc])* #[serde(rename = $name)] $variant, )+
        }

        impl PolicyKind {
            /// Every kind, in registration order.
            pub const ALL: &'static [PolicyKind] = &[$(PolicyKind::$variant),+];

            /// The name used in `pipeline.toml` (`greedy`, `search`, ...).
            pub const fn as_str(self) -> &'static str {
                match self { $(PolicyKind::$variant => $name,)+ }
            }

            /// What the kind provides (its fields, checks, behaviour, description).
            pub fn seam(self) -> &'static dyn $crate::policy::KindSeam {
                match self { $(PolicyKind::$variant => &$seam,)+ }
            }
        }
    };
}
pub(super) use policy_kinds;

/// The kinds a study or a command may name without defining them (`greedy`, `hoarder`,
/// `counter`, `random`): one list, used by every place that resolves a bare name.
pub const BUILTIN_KINDS: [PolicyKind; 4] = [
    PolicyKind::Greedy,
    PolicyKind::Hoarder,
    PolicyKind::Counter,
    PolicyKind::Random,
];

impl PolicyKind {
    /// Parse a built-in kind's name (one of [`BUILTIN_KINDS`]).
    pub fn parse(name: &str) -> Option<PolicyKind> {
        BUILTIN_KINDS.into_iter().find(|k| k.as_str() == name)
    }

    /// The built-in names, comma-separated, for error messages (`greedy, hoarder, counter,
    /// random`).
    pub fn builtin_names() -> String {
        BUILTIN_KINDS.map(PolicyKind::as_str).join(", ")
    }

    /// The threshold a policy of this kind has when none is given: 0 for greedy (it has none),
    /// [`DEFAULT_THRESHOLD`] otherwise (a value in the built-ins' specs, so in their keys).
    pub const fn default_threshold(self) -> u8 {
        match self {
            PolicyKind::Greedy => 0,
            _ => DEFAULT_THRESHOLD,
        }
    }

    /// What is valid for a kind's field `field` (the first registered kind taking it), for
    /// messages about `policies.NAME.field`.
    pub fn field_valid(field: &str) -> Option<&'static str> {
        PolicyKind::ALL
            .iter()
            .find_map(|k| k.seam().fields().iter().find(|f| f.name == field))
            .map(|f| f.valid)
    }

    /// Every kind's name, quoted and joined (`"greedy", "hoarder", ... or "mixture"`).
    pub fn names() -> String {
        let names: Vec<String> = PolicyKind::ALL
            .iter()
            .map(|k| format!("\"{}\"", k.as_str()))
            .collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    /// The released simulator's name (its CSV's): the name capitalised (`Greedy`).
    pub fn dotnet_name(self) -> String {
        let name = self.as_str();
        name[..1].to_ascii_uppercase() + &name[1..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind's serde name is its study-file name, for every registered kind.
    #[test]
    fn every_kind_serialises_as_its_name() {
        for &k in PolicyKind::ALL {
            let v = toml::Value::try_from(k).unwrap();
            assert_eq!(v, toml::Value::String(k.as_str().into()));
            assert_eq!(v.try_into::<PolicyKind>().unwrap(), k);
        }
        assert_eq!(PolicyKind::Counter.dotnet_name(), "Counter");
    }

    /// The words each field's errors say ("valid: ...") name the limits the checks use.
    #[test]
    fn field_hints_name_the_limits_the_checks_use() {
        use crate::policy::{MAX_HORIZON, MAX_THRESHOLD, MAX_WORLDS, onnx::MAX_BATCH};
        for (field, limit) in [
            ("threshold", MAX_THRESHOLD.to_string()),
            ("worlds", MAX_WORLDS.to_string()),
            ("horizon", MAX_HORIZON.to_string()),
            ("batch", MAX_BATCH.to_string()),
            ("policies", crate::policy::mixture::MAX_PARTS.to_string()),
        ] {
            let valid = PolicyKind::field_valid(field).unwrap();
            assert!(valid.contains(&format!(" {limit} ")), "{field}: {valid}");
        }
        assert!(PolicyKind::names().ends_with("\"exploit\" or \"mixture\""));
    }
}
