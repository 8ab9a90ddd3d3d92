//! The rule for the names a study file gives (policies, studies, sweeps, leagues): they become
//! file and job names, so [`check_name`] is the one place that says which are valid.
//!
//! Invariant: a name `check_name` accepts is a safe single path component and cannot be read
//! as a matchup (`A-vs-B`).

pub fn check_name(name: &str) -> Result<(), String> {
    let rule = "use 1-40 characters a-z, 0-9, '-' or '_', starting with a letter (names become file and job names)";
    if name.contains(['/', '\\']) || name.contains("..") {
        return Err(format!("name `{name}` contains a path separator; {rule}"));
    }
    if name.contains("-vs-") {
        return Err(format!(
            "name `{name}` contains `-vs-`, which separates the two policies in matchup names; {rule}"
        ));
    }
    let ok = !name.is_empty()
        && name.len() <= 40
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
