//! The rule for the names a study file gives (policies, studies, sweeps, leagues): they become
//! file and job names, so [`check_name`] is the one place that says which are valid.
//!
//! Invariant: a name `check_name` accepts is a safe single path component and cannot be read
//! as a matchup (`A-vs-B`).

/// The longest name [`check_name`] accepts.
const MAX_NAME: usize = 40;

/// A new name for `name` that clashes with another: `name` with `-suffix`, shortened so that
/// [`check_name`] accepts it (for a rename hint).
pub fn renamed(name: &str, suffix: &str) -> String {
    let keep = MAX_NAME.saturating_sub(suffix.len() + 1).min(name.len());
    format!("{}-{suffix}", &name[..keep])
}

pub fn check_name(name: &str) -> Result<(), String> {
    let rule = format!(
        "use 1-{MAX_NAME} characters a-z, 0-9, '-' or '_', starting with a letter (names become file and job names)"
    );
    if name.contains(['/', '\\']) || name.contains("..") {
        return Err(format!("name `{name}` contains a path separator; {rule}"));
    }
    if name.contains("-vs-") {
        return Err(format!(
            "name `{name}` contains `-vs-`, which separates the two policies in matchup names; {rule}"
        ));
    }
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.starts_with(|c: char| c.is_ascii_lowercase());
    if ok {
        Ok(())
    } else {
        Err(format!("name `{name}` is not allowed; {rule}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rename hint is itself a valid name, whatever the length of the clashing one.
    #[test]
    fn a_suggested_new_name_is_valid() {
        for name in ["replication", &"a".repeat(33), &"b".repeat(40)] {
            for suffix in ["league", "variant"] {
                let new = renamed(name, suffix);
                assert!(check_name(&new).is_ok(), "{new}");
                assert_ne!(new, name);
            }
        }
    }
}
